import type { AddressInfo } from 'node:net';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REALTIME_EVENTS, realtimeChannel, type NotificationEvent } from '@berth/contracts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, sessionFor, hostOf } from '../../../test/hosting.ts';
import { mailsTo } from '../../../test/outbox.ts';
import type { UserRow } from '../users/queries.ts';

let t: TestApp;
let owner: UserRow;
const DAY = 24 * 60 * 60 * 1000;
const notified: { userId: number; text: string }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await addTenant(t, 'Alpha Hosting', 'alpha.test');
  await t.db.updateTable('tenants').set({ public_url: 'https://panel.alpha.test' }).where('id', '=', tenant).execute();
  owner = (await addUser(t, tenant, 'owner@alpha.test', 'customer', ['Olga', 'Owner'])).user;
  const admin = await addUser(t, tenant, 'admin@alpha.test', 'host_admin');
  const now = t.clock.now().getTime();
  for (const [name, days] of [
    ['thirty.example', 30],
    ['seven.example', 7],
    ['one.example', 1],
    ['far.example', 31],
    ['past.example', -1],
  ] as const) {
    await admin.call({
      method: 'POST',
      url: '/api/host/domain',
      payload: { name, owner_id: owner.id, expire_at: new Date(now + days * DAY).toISOString() },
    });
  }
  await admin.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'never.example', owner_id: owner.id } });
  // Recorded on the way through; the last test watches a real socket receive it.
  const notify = t.services.realtime.notify.bind(t.services.realtime);
  vi.spyOn(t.services.realtime, 'notify').mockImplementation((userId, event) => {
    notified.push({ userId, text: event.text });
    notify(userId, event);
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const reminders = () =>
  t.db
    .selectFrom('domain_expiry_reminders as r')
    .innerJoin('domains as d', 'd.id', 'r.domain_id')
    .select(['d.name', 'r.days_before'])
    .orderBy('d.name')
    .execute();

describe('domain expiry reminders', () => {
  it('reminds each owner once per threshold (30, 7, 1 days), by mail, notification and realtime, even when run twice', async () => {
    const first = await t.services.expiry.runOnce(t.clock.now());
    const second = await t.services.expiry.runOnce(t.clock.now());
    expect(first.sent).toBe(3);
    expect(second.sent).toBe(0);
    expect(await reminders()).toEqual([
      { name: 'one.example', days_before: 1 },
      { name: 'seven.example', days_before: 7 },
      { name: 'thirty.example', days_before: 30 },
    ]);

    const mails = await mailsTo(t.db, 'owner@alpha.test');
    expect(mails.map((m) => m.subject).sort()).toEqual([
      'Your domain one.example at Alpha Hosting expires in 1 day',
      'Your domain seven.example at Alpha Hosting expires in 7 days',
      'Your domain thirty.example at Alpha Hosting expires in 30 days',
    ]);
    const one = mails.find((m) => m.subject.includes('one.example'))!;
    expect(one.text_body).toContain('Hello Olga Owner,');
    expect(one.text_body).toContain('expires on 2 November 2026, in 1 day.');
    expect(one.text_body).toMatch(/https:\/\/panel\.alpha\.test\/host\/domain\/\d+\/renew/);

    const notes = await t.db.selectFrom('notifications').select(['user_id', 'type', 'text', 'read_at']).orderBy('id').execute();
    expect(notes).toHaveLength(3);
    expect(notes.every((n) => n.user_id === owner.id && n.type === 'warning' && n.read_at === null)).toBe(true);
    expect(notified.map((n) => n.text).sort()).toEqual(notes.map((n) => n.text).sort());
    expect(notified.every((n) => n.userId === owner.id)).toBe(true);
    expect(notes.map((n) => n.text)).toContain('The domain one.example expires on 2 November 2026. Renew it in time to keep it.');
    expect((await t.db.selectFrom('audit_log').select('action').where('action', '=', 'expiry.reminder_sent').execute()).length).toBe(3);
  });

  it('sends the next reminder when the domain reaches it, and again after a renewal', async () => {
    t.clock.advance(2 * DAY);
    // far (now 29 days) enters the 30-day window; thirty (28) is still in it and was reminded already.
    expect((await t.services.expiry.runOnce(t.clock.now())).sent).toBe(1);
    t.clock.advance(21 * DAY);
    // thirty is now 7 days away, far 8.
    expect((await t.services.expiry.runOnce(t.clock.now())).sent).toBe(1);
    expect(
      (await reminders())
        .filter((r) => r.name === 'thirty.example')
        .map((r) => r.days_before)
        .sort(),
    ).toEqual([30, 7]);

    const seven = await t.db.selectFrom('domains').select(['id', 'expire_at']).where('name', '=', 'one.example').executeTakeFirstOrThrow();
    await t.db
      .updateTable('domains')
      .set({ expire_at: new Date(t.clock.now().getTime() + 20 * DAY) })
      .where('id', '=', seven.id)
      .execute();
    expect((await t.services.expiry.runOnce(t.clock.now())).sent).toBe(1);
    expect((await t.services.expiry.runOnce(t.clock.now())).sent).toBe(0);
    expect((await mailsTo(t.db, 'owner@alpha.test')).length).toBe(6);
  });

  it('claims each reminder once when runs overlap', async () => {
    t.clock.advance(DAY);
    const results = await Promise.all([t.services.expiry.runOnce(t.clock.now()), t.services.expiry.runOnce(t.clock.now())]);
    const total = results.reduce((sum, r) => sum + r.sent, 0);
    const rows = await t.db
      .selectFrom('domain_expiry_reminders')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const notifications = await t.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(Number(notifications.n));
    expect(Number(notifications.n)).toBe(6 + total);
  });

  it("pushes the notification into the owner's realtime channel", async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const socket = connect(url, {
      transports: ['websocket'],
      extraHeaders: { cookie: await sessionFor(t, owner), host: await hostOf(t, owner.tenant_id) },
      reconnection: false,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on('connect', resolve);
        socket.on('connect_error', reject);
      });
      expect(await socket.timeout(5000).emitWithAck('subscribe', realtimeChannel.notifications(owner.id))).toEqual({ ok: true });
      const received = new Promise<NotificationEvent>((resolve) => socket.once(REALTIME_EVENTS.notification, resolve));
      const domain = await t.db.selectFrom('domains').select('id').where('name', '=', 'never.example').executeTakeFirstOrThrow();
      await t.db
        .updateTable('domains')
        .set({ expire_at: new Date(t.clock.now().getTime() + DAY / 2) })
        .where('id', '=', domain.id)
        .execute();
      expect((await t.services.expiry.runOnce(t.clock.now())).sent).toBe(1);
      expect(await received).toEqual({ type: 'warning', text: expect.stringMatching(/^The domain never\.example expires on /) });
    } finally {
      socket.disconnect();
    }
  });
});
