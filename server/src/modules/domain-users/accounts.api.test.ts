import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, type Caller } from '../../../test/hosting.ts';
import type { UserRow } from '../users/queries.ts';

let t: TestApp;
let owner: { user: UserRow; call: Caller };
let stranger: { user: UserRow; call: Caller };
let admin: { user: UserRow; call: Caller };
let domainId: number;
const PASS = 'mailbox passphrase 2026';

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await addTenant(t, 'Alpha', 'alpha.test');
  owner = await addUser(t, tenant, 'owner@alpha.test');
  stranger = await addUser(t, tenant, 'stranger@alpha.test');
  admin = await addUser(t, tenant, 'admin@alpha.test', 'host_admin');
  domainId = (await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'bücher.example' } })).json().data.id;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const url = (suffix = '') => `/api/host/domain/${domainId}/users${suffix}`;
const createAccount = (call: Caller, payload: Record<string, unknown>) =>
  call({ method: 'POST', url: url(), payload: { password: PASS, password_confirmation: PASS, ...payload } });
const changeOwnPassword = (uid: string, old: string, password: string) =>
  t.app.inject({
    method: 'PATCH',
    url: '/api/host/domain-user/change-password',
    payload: { uid, user_password_old: old, user_password: password, user_password_confirmation: password },
  });

describe('/api/host/domain/:id/users', () => {
  it('creates an account from a local part or a full address, hashed with argon2id', async () => {
    const answer = await createAccount(owner.call, { uid: 'Info', quota_mb: 2048 });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json().data).toMatchObject({ uid: 'info@xn--bcher-kva.example', quota_mb: 2048, enabled: true, domain_id: domainId });
    expect(answer.json().message).toBe('The account info@xn--bcher-kva.example has been created.');
    const full = await createAccount(admin.call, { uid: 'sales@bücher.example', enabled: false });
    expect(full.json().data).toMatchObject({ uid: 'sales@xn--bcher-kva.example', quota_mb: 1024, enabled: false });
    const row = await t.db
      .selectFrom('domain_users')
      .select(['password_hash', 'tenant_id'])
      .where('uid', '=', 'info@xn--bcher-kva.example')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    // The account's user can now use /change-password.
    expect((await changeOwnPassword('info@xn--bcher-kva.example', PASS, 'another mailbox passphrase')).statusCode).toBe(200);
  });

  it('answers 422 on the field: duplicate uid, bad uid, weak password, quota', async () => {
    const duplicate = await createAccount(owner.call, { uid: 'INFO@xn--bcher-kva.example' });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json().errors).toEqual({ uid: ['This login (uid) already exists.'] });
    for (const uid of ['.dot', 'a..b', 'x@other.example', 'with space', 'ümlaut']) {
      expect((await createAccount(owner.call, { uid })).json().errors?.uid, uid).toHaveLength(1);
    }
    const weak = await createAccount(owner.call, { uid: 'weak', password: 'short', password_confirmation: 'other' });
    expect(Object.keys(weak.json().errors).sort()).toEqual(['password', 'password_confirmation']);
    const sameAsLogin = await createAccount(owner.call, {
      uid: 'office',
      password: 'office@xn--bcher-kva.example',
      password_confirmation: 'office@xn--bcher-kva.example',
    });
    expect(sameAsLogin.json().errors.password[0]).toMatch(/must not be your e-mail/);
    expect((await createAccount(owner.call, { uid: 'big', quota_mb: 0 })).json().errors.quota_mb).toEqual([
      'Use a quota between 1 MB and 1 TB (1048576 MB).',
    ]);
  });

  it('lists accounts by uid in keyset pages, to the owner and admins only', async () => {
    for (const uid of ['a1', 'a2', 'a3']) await createAccount(owner.call, { uid });
    const uids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { uid: string }[]; next_cursor: string | null } = (
        await owner.call({ method: 'GET', url: url(), query: { limit: '2', ...(cursor ? { cursor } : {}) } })
      ).json();
      uids.push(...page.data.map((a) => a.uid.split('@')[0]!));
      cursor = page.next_cursor;
    } while (cursor);
    expect(uids).toEqual(['a1', 'a2', 'a3', 'info', 'sales']);
    expect((await admin.call({ method: 'GET', url: url() })).statusCode).toBe(200);
    expect((await stranger.call({ method: 'GET', url: url() })).statusCode).toBe(404);
  });

  it('disables, re-enables, changes quota, resets the password and deletes', async () => {
    const id = (await createAccount(owner.call, { uid: 'ftp' })).json().data.id;
    const disabled = await owner.call({ method: 'PATCH', url: url(`/${id}`), payload: { enabled: false, quota_mb: 500 } });
    expect(disabled.json().data).toMatchObject({ enabled: false, quota_mb: 500 });
    // A disabled account cannot change its password either.
    expect((await changeOwnPassword('ftp@xn--bcher-kva.example', PASS, 'a brand new passphrase')).statusCode).toBe(422);
    await owner.call({ method: 'PATCH', url: url(`/${id}`), payload: { enabled: true } });

    const reset = await admin.call({
      method: 'POST',
      url: url(`/${id}/password`),
      payload: { password: 'set by the admin 2026', password_confirmation: 'set by the admin 2026' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await changeOwnPassword('ftp@xn--bcher-kva.example', PASS, 'a brand new passphrase')).statusCode).toBe(422);
    expect((await changeOwnPassword('ftp@xn--bcher-kva.example', 'set by the admin 2026', 'a brand new passphrase')).statusCode).toBe(200);
    const weak = await owner.call({
      method: 'POST',
      url: url(`/${id}/password`),
      payload: { password: 'short', password_confirmation: 'short' },
    });
    expect(weak.json().errors.password).toBeDefined();

    expect((await stranger.call({ method: 'DELETE', url: url(`/${id}`) })).statusCode).toBe(404);
    const deleted = await owner.call({ method: 'DELETE', url: url(`/${id}`) });
    expect(deleted.json().message).toBe('The account ftp@xn--bcher-kva.example has been deleted.');
    expect((await owner.call({ method: 'GET', url: url(`/${id}`) })).statusCode).toBe(404);
    const actions = await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_type', '=', 'domain_user')
      .where('target_id', '=', String(id))
      .orderBy('id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual([
      'domain_user.created',
      'domain_user.updated',
      'domain_user.updated',
      'domain_user.password_reset',
      'domain_user.deleted',
    ]);
  });

  it('sets the spam filter per mailbox (normal by default); the Junk rule Dovecot reads follows it', async () => {
    const made = await createAccount(owner.call, { uid: 'filtered' });
    expect(made.json().data.spam_filter).toBe('normal');
    const id = made.json().data.id;
    const rule = async () =>
      (
        await sql<{ id: string; script: string }>`select id, script from mail.sieve_scripts
          where username = 'filtered@xn--bcher-kva.example' and name = 'spam'`.execute(t.db)
      ).rows;
    // The mail host serves a domain once it is proven (migration 0020): this one is, from here on.
    await t.db.updateTable('domains').set({ verification_token: null }).where('id', '=', domainId).execute();
    expect((await rule())[0]).toMatchObject({ id: 'spam.normal', script: expect.stringContaining('"X-Spam-Level" "******")') });
    const strict = await owner.call({ method: 'PATCH', url: url(`/${id}`), payload: { spam_filter: 'strict' } });
    expect(strict.statusCode, strict.body).toBe(200);
    expect(strict.json().data.spam_filter).toBe('strict');
    expect((await rule())[0]).toMatchObject({ id: 'spam.strict', script: expect.stringContaining('"X-Spam-Level" "***")') });
    const off = await admin.call({ method: 'PATCH', url: url(`/${id}`), payload: { spam_filter: 'off' } });
    expect(off.json().data.spam_filter).toBe('off');
    expect(await rule()).toEqual([]);
    for (const bad of ['lenient', '', 'off;', 'strict"\n}', null]) {
      const refused = await owner.call({ method: 'PATCH', url: url(`/${id}`), payload: { spam_filter: bad } });
      expect(refused.statusCode, String(bad)).toBe(422);
      expect(refused.json().errors).toEqual({ spam_filter: ['Choose off, normal or strict.'] });
    }
    expect((await stranger.call({ method: 'PATCH', url: url(`/${id}`), payload: { spam_filter: 'strict' } })).statusCode).toBe(404);
    expect((await owner.call({ method: 'GET', url: url(`/${id}`) })).json().data.spam_filter).toBe('off');
    const audit = await t.db
      .selectFrom('audit_log')
      .select('data')
      .where('target_type', '=', 'domain_user')
      .where('target_id', '=', String(id))
      .where('action', '=', 'domain_user.updated')
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.data.spam_filter)).toEqual(['strict', 'off']);
  });

  it("shows a mailbox's mail log of the last 7 days, newest first, to the owner and admins only", async () => {
    const id = (await createAccount(owner.call, { uid: 'logged' })).json().data.id;
    const now = t.clock.now().getTime();
    const day = 86_400_000;
    await t.db
      .insertInto('mail_log')
      .values([
        {
          domain_user_id: id,
          direction: 'in',
          queue_id: 'A1',
          peer: 'a@elsewhere.test',
          status: 'delivered',
          detail: '',
          at: new Date(now - 8 * day),
        },
        {
          domain_user_id: id,
          direction: 'out',
          queue_id: 'B2',
          peer: 'b@elsewhere.test',
          status: 'bounced',
          detail: '550 No such user',
          at: new Date(now - 2 * day),
        },
        {
          domain_user_id: id,
          direction: 'in',
          queue_id: 'C3',
          peer: 'c@elsewhere.test',
          status: 'delivered',
          detail: '',
          at: new Date(now - 60_000),
        },
      ])
      .execute();
    const answer = await owner.call({ method: 'GET', url: url(`/${id}/mail-log`) });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toEqual([
      { at: new Date(now - 60_000).toISOString(), direction: 'in', peer: 'c@elsewhere.test', status: 'delivered', detail: '' },
      {
        at: new Date(now - 2 * day).toISOString(),
        direction: 'out',
        peer: 'b@elsewhere.test',
        status: 'bounced',
        detail: '550 No such user',
      },
    ]);
    expect((await admin.call({ method: 'GET', url: url(`/${id}/mail-log`) })).statusCode).toBe(200);
    expect((await stranger.call({ method: 'GET', url: url(`/${id}/mail-log`) })).statusCode).toBe(404);
    expect((await owner.call({ method: 'GET', url: url('/999999/mail-log') })).statusCode).toBe(404);
  });

  it('does not reach an account through another domain', async () => {
    const other = (await stranger.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'stranger.example' } })).json().data.id;
    const id = (await createAccount(owner.call, { uid: 'keep' })).json().data.id;
    expect((await stranger.call({ method: 'GET', url: `/api/host/domain/${other}/users/${id}` })).statusCode).toBe(404);
    expect(
      (await stranger.call({ method: 'PATCH', url: `/api/host/domain/${other}/users/${id}`, payload: { enabled: false } })).statusCode,
    ).toBe(404);
    expect((await t.db.selectFrom('domain_users').select('enabled').where('id', '=', id).executeTakeFirstOrThrow()).enabled).toBe(true);
  });
});
