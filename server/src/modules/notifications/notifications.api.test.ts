import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, type Caller } from '../../../test/hosting.ts';
import type { UserRow } from '../users/queries.ts';

let t: TestApp;
let tenant: number;
let owner: { user: UserRow; call: Caller };
let other: { user: UserRow; call: Caller };
let admin: { user: UserRow; call: Caller };
const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60 * 1000;

beforeAll(async () => {
  t = await createTestApp();
  tenant = await addTenant(t, 'Alpha', 'alpha.test');
  owner = await addUser(t, tenant, 'olga@alpha.test', 'customer', ['Olga', 'Owner']);
  other = await addUser(t, tenant, 'otto@alpha.test');
  admin = await addUser(t, tenant, 'admin@alpha.test', 'host_admin');
  // The real path: domains expiring soon, then the daily reminder job writes the notifications.
  const now = t.clock.now().getTime();
  for (const [name, days] of [
    ['first.example', 20],
    ['second.example', 5],
  ] as const) {
    const answer = await admin.call({
      method: 'POST',
      url: '/api/host/domain',
      payload: { name, owner_id: owner.user.id, expire_at: new Date(now + days * DAY).toISOString() },
    });
    expect(answer.statusCode, answer.body).toBe(201);
  }
  await t.services.expiry.runOnce(t.clock.now());
  t.clock.advance(MINUTE);
  const third = await admin.call({
    method: 'POST',
    url: '/api/host/domain',
    payload: { name: 'third.example', owner_id: owner.user.id, expire_at: new Date(now + 12 * 60 * 60 * 1000).toISOString() },
  });
  expect(third.statusCode, third.body).toBe(201);
  await t.services.expiry.runOnce(t.clock.now());
  t.clock.advance(MINUTE);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

interface Listed {
  id: number;
  type: string;
  text: string;
  read: boolean;
  read_at: string | null;
  created_at: string;
}

const list = async (call: Caller, query: Record<string, string> = {}) => {
  const answer = await call({ method: 'GET', url: '/api/notifications', query });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as { data: Listed[]; next_cursor: string | null; unread: number };
};

describe('GET /api/notifications', () => {
  it("lists the caller's own notifications, newest first, with the unread count", async () => {
    const page = await list(owner.call);
    expect(page.unread).toBe(3);
    expect(page.next_cursor).toBeNull();
    expect(page.data.map((n) => n.text)).toEqual([
      expect.stringContaining('third.example'),
      expect.stringContaining('second.example'),
      expect.stringContaining('first.example'),
    ]);
    expect(page.data[0]).toMatchObject({ type: 'warning', read: false, read_at: null });
    expect(page.data[0]?.created_at).toBe(new Date(t.clock.now().getTime() - MINUTE).toISOString());
    // Nobody else sees them.
    expect(await list(other.call)).toEqual({ data: [], next_cursor: null, unread: 0 });
    expect(await list(admin.call)).toEqual({ data: [], next_cursor: null, unread: 0 });
    expect((await t.app.inject({ method: 'GET', url: '/api/notifications' })).statusCode).toBe(401);
  });

  it('pages by keyset: every notification once, in order, and a bad cursor is a 422 on the field', async () => {
    const all = (await list(owner.call)).data.map((n) => n.id);
    const first = await list(owner.call, { limit: '2' });
    expect(first.data.map((n) => n.id)).toEqual(all.slice(0, 2));
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await list(owner.call, { limit: '2', cursor: first.next_cursor as string });
    expect(second.data.map((n) => n.id)).toEqual(all.slice(2));
    expect(second.next_cursor).toBeNull();

    const bad = await owner.call({ method: 'GET', url: '/api/notifications', query: { cursor: 'not-a-cursor' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('cursor');
    const tooMany = await owner.call({ method: 'GET', url: '/api/notifications', query: { limit: '1000' } });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().errors).toHaveProperty('limit');
  });
});

describe('POST /api/notifications/:id/read and /read-all', () => {
  it('marks one read (keeping the first read time), and only the unread ones are listed with unread=true', async () => {
    const [newest, middle] = (await list(owner.call)).data;
    const answer = await owner.call({ method: 'POST', url: `/api/notifications/${middle?.id}/read` });
    expect(answer.statusCode, answer.body).toBe(200);
    const readAt = t.clock.now().toISOString();
    expect(answer.json()).toEqual({ data: { ...middle, read: true, read_at: readAt }, unread: 2 });

    t.clock.advance(MINUTE);
    const again = await owner.call({ method: 'POST', url: `/api/notifications/${middle?.id}/read` });
    expect(again.json()).toMatchObject({ data: { read_at: readAt }, unread: 2 });

    const unread = await list(owner.call, { unread: 'true' });
    expect(unread.data.map((n) => n.id)).not.toContain(middle?.id);
    expect(unread.data.map((n) => n.id)).toContain(newest?.id);
    expect(unread.unread).toBe(2);
    const row = await t.db
      .selectFrom('notifications')
      .select('read_at')
      .where('id', '=', middle?.id as number)
      .executeTakeFirstOrThrow();
    expect(new Date(row.read_at as Date).toISOString()).toBe(readAt);
  });

  it("answers 404 for another user's notification and for unknown ids, and changes nothing", async () => {
    const [mine] = (await list(owner.call, { unread: 'true' })).data;
    for (const caller of [other.call, admin.call]) {
      const answer = await caller({ method: 'POST', url: `/api/notifications/${mine?.id}/read` });
      expect(answer.statusCode).toBe(404);
    }
    expect((await owner.call({ method: 'POST', url: '/api/notifications/999999999999/read' })).statusCode).toBe(422);
    expect((await owner.call({ method: 'POST', url: '/api/notifications/abc/read' })).statusCode).toBe(422);
    expect((await owner.call({ method: 'POST', url: '/api/notifications/0/read' })).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'POST', url: `/api/notifications/${mine?.id}/read` })).statusCode).toBe(401);
    expect((await list(owner.call)).unread).toBe(2);
  });

  it("marks all of the caller's notifications read, and nobody else's", async () => {
    await t.db
      .insertInto('notifications')
      .values({ tenant_id: tenant, user_id: other.user.id, type: 'info', text: 'for otto', created_at: t.clock.now() })
      .execute();
    const answer = await owner.call({ method: 'POST', url: '/api/notifications/read-all' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ data: { marked: 2 }, unread: 0 });
    const page = await list(owner.call);
    expect(page.unread).toBe(0);
    expect(page.data.every((n) => n.read)).toBe(true);
    expect((await list(other.call)).unread).toBe(1);

    const twice = await owner.call({ method: 'POST', url: '/api/notifications/read-all' });
    expect(twice.json()).toEqual({ data: { marked: 0 }, unread: 0 });
    const dashboard = await owner.call({ method: 'GET', url: '/api/dashboard' });
    expect(dashboard.json().data.notifications_unread).toBe(0);
  });
});
