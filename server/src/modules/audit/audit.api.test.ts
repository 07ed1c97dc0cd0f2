import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, superAdmin, type Caller } from '../../../test/hosting.ts';
import type { UserRow } from '../users/queries.ts';

let t: TestApp;
let adminA: { user: UserRow; call: Caller };
let adminB: { user: UserRow; call: Caller };
let customerA: { user: UserRow; call: Caller };
let root: { user: UserRow; call: Caller };
let tenantB: number;

beforeAll(async () => {
  t = await createTestApp();
  const tenantA = await addTenant(t, 'Alpha', 'alpha.test');
  tenantB = await addTenant(t, 'Beta', 'beta.test');
  adminA = await addUser(t, tenantA, 'admin@alpha.test', 'host_admin', ['Ada', 'Admin']);
  adminB = await addUser(t, tenantB, 'admin@beta.test', 'host_admin');
  customerA = await addUser(t, tenantA, 'cleo@alpha.test');
  const customerB = await addUser(t, tenantB, 'dan@beta.test');
  root = await superAdmin(t);
  for (const name of ['one.example', 'two.example', 'three.example']) {
    await customerA.call({ method: 'POST', url: '/api/host/domain', headers: { 'x-forwarded-for': '203.0.113.9' }, payload: { name } });
  }
  const id = (await customerB.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'beta.example' } })).json().data.id;
  await adminB.call({ method: 'PATCH', url: `/api/host/domain/${id}`, payload: { notes: 'checked' } });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

type Entry = {
  id: string;
  action: string;
  tenant_id: number | null;
  user: { id: number; display_name: string } | null;
  target: { type: string; id: string } | null;
  ip: string | null;
  data: Record<string, unknown>;
  created_at: string;
};
const read = async (call: Caller, query: Record<string, string> = {}) => {
  const answer = await call({ method: 'GET', url: '/api/system/audit', query });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as { data: Entry[]; next_cursor: string | null };
};

describe('GET /api/system/audit', () => {
  it("shows host admins their tenant's entries: who, what, which object, when, from where", async () => {
    const { data } = await read(adminA.call, { action: 'domain.' });
    expect(data.map((e) => e.data.name)).toEqual(['three.example', 'two.example', 'one.example']);
    expect(data[0]).toMatchObject({
      action: 'domain.created',
      tenant_id: customerA.user.tenant_id,
      user: { id: customerA.user.id, display_name: 'Test User' },
      target: { type: 'domain' },
      ip: '127.0.0.1',
      created_at: '2026-11-01T09:00:00.000Z',
    });
    const beta = await read(adminB.call, { action: 'domain.' });
    expect(beta.data.map((e) => e.action)).toEqual(['domain.updated', 'domain.created']);
  });

  it('filters by action, user, object and time, and pages newest first', async () => {
    const all = await read(root.call, { limit: '100' });
    expect(all.data.length).toBeGreaterThanOrEqual(5);
    const ids = all.data.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await read(root.call, { limit: '2', ...(cursor ? { cursor } : {}) });
      paged.push(...page.data.map((e) => e.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(paged).toEqual(all.data.map((e) => e.id));

    expect((await read(root.call, { tenant_id: String(tenantB) })).data.every((e) => e.tenant_id === tenantB)).toBe(true);
    expect((await read(root.call, { user_id: String(adminB.user.id) })).data.map((e) => e.action)).toEqual(['domain.updated']);
    const target = all.data.find((e) => e.data.name === 'two.example')!.target!;
    expect((await read(root.call, { target_type: 'domain', target_id: target.id })).data).toHaveLength(1);
    expect((await read(root.call, { from: '2026-11-02' })).data).toEqual([]);
    expect((await read(root.call, { to: '2026-11-02T00:00:00Z', action: 'domain.created' })).data).toHaveLength(4);
  });

  it('is closed to customers and to other tenants', async () => {
    expect((await customerA.call({ method: 'GET', url: '/api/system/audit' })).statusCode).toBe(403);
    expect((await adminA.call({ method: 'GET', url: '/api/system/audit', query: { tenant_id: String(tenantB) } })).statusCode).toBe(404);
    expect((await adminA.call({ method: 'GET', url: '/api/system/audit', query: { cursor: 'x' } })).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/api/system/audit' })).statusCode).toBe(401);
  });
});

describe('GET /api/system/audit, in words', () => {
  it('names each object as it is now (a person, a domain), and says nothing once it is gone', async () => {
    const adjusted = await adminA.call({
      method: 'POST',
      url: '/api/system/credit/adjustments',
      payload: { user_id: customerA.user.id, amount: 15_000, description: 'Goodwill' },
    });
    expect(adjusted.statusCode, adjusted.body).toBe(201);
    const [credit] = (await read(adminA.call, { action: 'credit.adjusted' })).data;
    expect(credit?.target).toEqual({ type: 'user', id: String(customerA.user.id), label: 'Test User' });
    expect(credit?.data).toMatchObject({ amount: 15_000, currency: 'EUR', balance: 15_000 });

    const made = await customerA.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'gone.example' } });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json<{ data: { id: number } }>().data.id;
    const [created] = (await read(adminA.call, { action: 'domain.created', target_type: 'domain', target_id: String(id) })).data;
    expect(created?.target).toEqual({ type: 'domain', id: String(id), label: 'gone.example' });
    expect((await customerA.call({ method: 'DELETE', url: `/api/host/domain/${id}`, query: { confirm: 'gone.example' } })).statusCode).toBe(
      200,
    );
    const [after] = (await read(adminA.call, { action: 'domain.created', target_type: 'domain', target_id: String(id) })).data;
    expect(after?.target).toEqual({ type: 'domain', id: String(id), label: null });
  });
});

describe('entries of the shop and promo codes', () => {
  it('name what really changed, and the promo code and TLD by their names while they exist', async () => {
    const catalogue = (await adminA.call({ method: 'GET', url: '/api/system/shop/catalogue' })).json().data;
    const tld = catalogue.tlds[0] as { id: number; tld: string };
    // The edit form sends every field; only the renewal price is different.
    const row = await t.db.selectFrom('tld_prices').selectAll().where('id', '=', tld.id).executeTakeFirstOrThrow();
    const edited = await adminA.call({
      method: 'PATCH',
      url: `/api/system/shop/tlds/${tld.id}`,
      payload: {
        register_price: Number(row.register_price),
        renew_price: Number(row.renew_price) + 100,
        transfer_price: Number(row.transfer_price),
        active: row.active,
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const promo = await adminA.call({
      method: 'POST',
      url: '/api/system/partner/promo',
      payload: { code: 'NAMED5', kind: 'percent', value: 5 },
    });
    expect(promo.statusCode, promo.body).toBe(201);
    const answer = await adminA.call({ method: 'GET', url: '/api/system/audit?action=shop.&limit=5' });
    const tldEntry = (answer.json().data as (Entry & { target: { label: string | null } })[]).find((e) => e.action === 'shop.tld_updated');
    expect(tldEntry?.data.changed).toBe('renew_price');
    expect(tldEntry?.target.label).toBe(`.${tld.tld}`);
    const promoEntry = (await adminA.call({ method: 'GET', url: '/api/system/audit?action=promo.created' })).json().data[0];
    expect(promoEntry.target).toMatchObject({ type: 'promo', label: 'NAMED5' });
  });
});
