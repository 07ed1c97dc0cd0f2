import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, type Caller } from '../../../test/hosting.ts';

// A mailbox's autoresponder: kept per account, readable by the owner and the tenant's admins,
// refused field by field, and handed to Dovecot as a Sieve script through mail.sieve_scripts
// (migration 0020; server/test/daemons/mail.daemon.test.ts has Dovecot send the reply).

let t: TestApp;
let admin: { call: Caller };
let customer: { call: Caller };
let outsider: { call: Caller };
let domainId: number;
let accountId: number;
const PASS = 'mailbox passphrase 2026';

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await addTenant(t, 'Alpha', 'alpha.test');
  const other = await addTenant(t, 'Beta', 'beta.test');
  admin = await addUser(t, tenant, 'admin@alpha.test', 'host_admin');
  customer = await addUser(t, tenant, 'hana@alpha.test');
  outsider = await addUser(t, other, 'admin@beta.test', 'host_admin');
  const customerId = (await t.db.selectFrom('users').select('id').where('email', '=', 'hana@alpha.test').executeTakeFirstOrThrow()).id;
  // Added by the admin for the customer: nothing to prove, so its mail is served.
  const domain = await admin.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'reply.example', owner_id: customerId } });
  domainId = domain.json().data.id;
  const account = await customer.call({
    method: 'POST',
    url: `/api/host/domain/${domainId}/users`,
    payload: { uid: 'jana', password: PASS, password_confirmation: PASS },
  });
  accountId = account.json().data.id;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const url = () => `/api/host/domain/${domainId}/users/${accountId}/autoreply`;
const put = (call: Caller, payload: Record<string, unknown>) => call({ method: 'PUT', url: url(), payload });
const served = async () =>
  (
    await sql<{
      username: string;
      name: string;
      id: string;
      script: string;
    }>`select * from mail.sieve_scripts where name = 'autoreply'`.execute(t.db)
  ).rows;
const AWAY = { enabled: true, subject: 'Away until 3 January', body: 'Hello,\nI am away.\nJana', interval_days: 2 };

describe('/api/host/domain/:id/users/:userId/autoreply', () => {
  it('is off until set; the owner switches it on and the mail server gets its script', async () => {
    const before = await customer.call({ method: 'GET', url: url() });
    expect(before.statusCode).toBe(200);
    expect(before.json().data).toEqual({
      enabled: false,
      subject: '',
      body: '',
      interval_days: 1,
      starts_on: null,
      ends_on: null,
      updated_at: null,
    });
    expect(await served()).toEqual([]);

    const saved = await put(customer.call, { ...AWAY, starts_on: '2026-12-20', ends_on: '2027-01-03' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().message).toBe('The autoresponder of jana@reply.example is on.');
    expect(saved.json().data).toMatchObject({ ...AWAY, starts_on: '2026-12-20', ends_on: '2027-01-03' });
    const [script] = await served();
    expect(script).toMatchObject({ username: 'jana@reply.example', name: 'autoreply', id: `${accountId}.1` });
    expect(script?.script).toContain('vacation :days 2 :subject "Away until 3 January" "Hello,\r\nI am away.\r\nJana";');
    expect(script?.script).toContain('currentdate :value "ge" "date" "2026-12-20"');

    const list = await customer.call({ method: 'GET', url: `/api/host/domain/${domainId}/users` });
    expect(list.json().data[0]).toMatchObject({ uid: 'jana@reply.example', autoreply: true });
  });

  it('each save gives the script a new data id, so Dovecot compiles the new text; off leaves the view', async () => {
    const changed = await put(admin.call, { ...AWAY, subject: 'Back on Monday' });
    expect(changed.json().data).toMatchObject({ subject: 'Back on Monday', starts_on: null, ends_on: null });
    expect((await served())[0]?.id).toBe(`${accountId}.2`);
    const off = await put(customer.call, { ...AWAY, enabled: false });
    expect(off.json().message).toBe('The autoresponder of jana@reply.example is off.');
    expect(await served()).toEqual([]);
    // The text is kept for the next time it is switched on.
    expect((await customer.call({ method: 'GET', url: url() })).json().data).toMatchObject({
      enabled: false,
      subject: 'Away until 3 January',
    });
    const audit = await t.db.selectFrom('audit_log').select(['action']).where('action', '=', 'domain_user.autoreply_changed').execute();
    expect(audit).toHaveLength(3);
  });

  it('refuses a reply without subject or text, a last day before the first and a bad interval, field by field, writing nothing', async () => {
    const before = await t.db.selectFrom('mail_autoreplies').selectAll().executeTakeFirstOrThrow();
    const empty = await put(customer.call, { enabled: true, subject: '  ', body: '\n', starts_on: '2027-01-05', ends_on: '2027-01-04' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({
      subject: ['This field is required.'],
      body: ['This field is required.'],
      ends_on: ['The last day cannot be before the first.'],
    });
    const shape = await put(customer.call, { ...AWAY, interval_days: 31, starts_on: '20 December', subject: 'x'.repeat(201) });
    expect(shape.statusCode).toBe(422);
    expect(Object.keys(shape.json().errors).sort()).toEqual(['interval_days', 'starts_on', 'subject']);
    expect(shape.json().errors.interval_days).toEqual(['Choose between 1 and 30 days.']);
    expect(await t.db.selectFrom('mail_autoreplies').selectAll().executeTakeFirstOrThrow()).toEqual(before);
  });

  it("is not found for another tenant's admin", async () => {
    expect((await outsider.call({ method: 'GET', url: url() })).statusCode).toBe(404);
    expect((await put(outsider.call, AWAY)).statusCode).toBe(404);
  });

  it('30 saves at the same instant leave one row, its revision counted once per save', async () => {
    const before = (await t.db.selectFrom('mail_autoreplies').select('revision').executeTakeFirstOrThrow()).revision;
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => put(customer.call, { ...AWAY, subject: `Away ${i}` })));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array.from({ length: 30 }, () => 200));
    const rows = await t.db.selectFrom('mail_autoreplies').select(['revision', 'subject', 'script']).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.revision).toBe(before + 30);
    expect(rows[0]?.script).toContain(`:subject "${rows[0]?.subject}"`);
  });

  it('goes with its mailbox', async () => {
    expect((await customer.call({ method: 'DELETE', url: `/api/host/domain/${domainId}/users/${accountId}` })).statusCode).toBe(200);
    expect(await t.db.selectFrom('mail_autoreplies').selectAll().execute()).toEqual([]);
  });
});
