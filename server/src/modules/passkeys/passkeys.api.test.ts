import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sessionCookieFrom, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, PASSWORD, type Caller } from '../../../test/hosting.ts';
import { mailsTo } from '../../../test/outbox.ts';
import { SoftAuthenticator } from '../../../test/webauthn.ts';
import type { UserRow } from '../users/queries.ts';

// Passkeys through the API with a software authenticator (real ES256 signatures): added with a
// name, a login with one is complete (no TOTP after it), the relying party is each tenant's own
// host, a counter that goes back is refused, a challenge is good once, and removing one needs the
// password and is told by mail.

let t: TestApp;
let tenantA: number;

let alice: { user: UserRow; call: Caller };
let bob: { user: UserRow; call: Caller };

beforeAll(async () => {
  t = await createTestApp();
  tenantA = await addTenant(t, 'Alpha', 'alpha.test');
  const tenantB = await addTenant(t, 'Beta', 'beta.test');
  alice = await addUser(t, tenantA, 'alice@alpha.test');
  bob = await addUser(t, tenantB, 'bob@beta.test');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const onHost = (host: string, options: { method: 'GET' | 'POST'; url: string; payload?: object }) =>
  t.app.inject({ ...options, headers: { host } });

async function addPasskey(who: { call: Caller }, authenticator: SoftAuthenticator, name = 'Laptop') {
  const options = (await who.call({ method: 'POST', url: '/api/account/passkeys/options' })).json().data;
  expect(options.options.rp).toMatchObject({ id: expect.any(String) });
  const answer = await who.call({
    method: 'POST',
    url: '/api/account/passkeys',
    payload: { challenge_id: options.challenge_id, name, response: authenticator.register(options.options) },
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data as { id: number; name: string };
}

async function passkeyLogin(host: string, authenticator: SoftAuthenticator, settings: Parameters<SoftAuthenticator['login']>[1] = {}) {
  const options = (await onHost(host, { method: 'POST', url: '/api/login/passkey/options' })).json().data;
  return onHost(host, {
    method: 'POST',
    url: '/api/login/passkey',
    payload: { challenge_id: options.challenge_id, response: authenticator.login(options.options, settings) },
  });
}

describe('passkeys', () => {
  it('adds a named passkey for the host it was made on, and mails a notice', async () => {
    const laptop = new SoftAuthenticator('http://alpha.test');
    const added = await addPasskey(alice, laptop);
    expect(added).toMatchObject({ name: 'Laptop', synced: false, last_used_at: null });
    const options = (await alice.call({ method: 'POST', url: '/api/account/passkeys/options' })).json().data.options;
    // The relying party is the tenant's own host; the passkey just made is excluded from a second registration.
    expect(options.rp).toEqual({ name: 'Alpha', id: 'alpha.test' });
    expect(options.excludeCredentials).toHaveLength(1);
    const mails = await mailsTo(t.db, 'alice@alpha.test');
    expect(mails.at(-1)?.subject).toBe('A passkey was added to your Alpha account');
  });

  it('logs in with both factors at once, even a user with TOTP, and records the last use', async () => {
    const phone = new SoftAuthenticator('http://alpha.test');
    await addPasskey(alice, phone, 'Phone');
    await t.db.updateTable('users').set({ google2fa_enabled: true }).where('id', '=', alice.user.id).execute();
    const answer = await passkeyLogin('alpha.test', phone);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toMatchObject({ status: 'authenticated', user: { email: 'alice@alpha.test' } });
    const cookie = sessionCookieFrom(answer.headers['set-cookie']);
    const me = await t.app.inject({ method: 'GET', url: '/api/user', headers: { host: 'alpha.test', cookie } });
    expect(me.statusCode).toBe(200);
    const list = (await alice.call({ method: 'GET', url: '/api/account/passkeys' })).json().data;
    expect(list.find((key: { name: string }) => key.name === 'Phone').last_used_at).not.toBeNull();
    await t.db.updateTable('users').set({ google2fa_enabled: false }).where('id', '=', alice.user.id).execute();
  });

  it("works on each tenant's own host only", async () => {
    const key = new SoftAuthenticator('http://beta.test');
    await addPasskey(bob, key);
    expect((await passkeyLogin('beta.test', key)).statusCode).toBe(200);
    // Alpha's host: another relying party and another tenant.
    expect((await passkeyLogin('alpha.test', key, { origin: 'http://alpha.test', rpId: 'alpha.test' })).statusCode).toBe(401);
    // An answer made for another relying party than the host's is refused.
    expect((await passkeyLogin('beta.test', key, { rpId: 'alpha.test' })).statusCode).toBe(401);
  });

  it('refuses a counter that does not move forward (a cloned authenticator)', async () => {
    const key = new SoftAuthenticator('http://alpha.test');
    await addPasskey(alice, key, 'Cloned');
    expect((await passkeyLogin('alpha.test', key, { counter: 5 })).statusCode).toBe(200);
    const clone = await passkeyLogin('alpha.test', key, { counter: 3 });
    expect(clone.statusCode).toBe(401);
    expect(clone.json().message).toBe('This passkey cannot log you in here.');
    const audit = await t.db.selectFrom('audit_log').select('action').where('action', '=', 'user.passkey_cloned').execute();
    expect(audit).toHaveLength(1);
    expect((await passkeyLogin('alpha.test', key, { counter: 6 })).statusCode).toBe(200);
  });

  it('signs in once per challenge when 30 answers arrive at the same instant', async () => {
    const key = new SoftAuthenticator('http://alpha.test');
    await addPasskey(alice, key, 'Raced');
    const options = (await onHost('alpha.test', { method: 'POST', url: '/api/login/passkey/options' })).json().data;
    const response = key.login(options.options);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        onHost('alpha.test', { method: 'POST', url: '/api/login/passkey', payload: { challenge_id: options.challenge_id, response } }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(29);
  });

  it('renames, and removes only with the password; a removed passkey logs nobody in', async () => {
    const key = new SoftAuthenticator('http://alpha.test');
    const added = await addPasskey(alice, key, 'Old name');
    const renamed = await alice.call({ method: 'PATCH', url: `/api/account/passkeys/${added.id}`, payload: { name: 'Work laptop' } });
    expect(renamed.json().data.name).toBe('Work laptop');
    expect((await bob.call({ method: 'PATCH', url: `/api/account/passkeys/${added.id}`, payload: { name: 'x' } })).statusCode).toBe(404);
    const wrong = await alice.call({
      method: 'DELETE',
      url: `/api/account/passkeys/${added.id}`,
      payload: { password: 'not my password at all' },
    });
    expect(wrong.statusCode).toBe(422);
    const removed = await alice.call({ method: 'DELETE', url: `/api/account/passkeys/${added.id}`, payload: { password: PASSWORD } });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await mailsTo(t.db, 'alice@alpha.test')).at(-1)?.subject).toBe('A passkey was removed from your Alpha account');
    expect((await passkeyLogin('alpha.test', key)).statusCode).toBe(401);
  });

  it('counts as the second factor a tenant requires, and refuses a locked account', async () => {
    const carol = await addUser(t, tenantA, 'carol@alpha.test');
    await t.db.updateTable('tenants').set({ require_2fa_customers: true }).where('id', '=', tenantA).execute();
    t.services.tenants.clear();
    expect((await carol.call({ method: 'GET', url: '/api/user' })).json().data.user.two_factor_setup_required).toBe(true);
    const key = new SoftAuthenticator('http://alpha.test');
    await addPasskey(carol, key);
    expect((await carol.call({ method: 'GET', url: '/api/user' })).json().data.user.two_factor_setup_required).toBe(false);
    await t.db.updateTable('tenants').set({ require_2fa_customers: false }).where('id', '=', tenantA).execute();
    t.services.tenants.clear();

    await t.db.updateTable('users').set({ locked_at: new Date() }).where('id', '=', carol.user.id).execute();
    expect((await passkeyLogin('alpha.test', key)).statusCode).toBe(422);
  });

  it("can be the second step after the password, for the pending user's own passkeys only", async () => {
    const dave = await addUser(t, tenantA, 'dave@alpha.test');
    const key = new SoftAuthenticator('http://alpha.test');
    await addPasskey(dave, key);
    const stranger = new SoftAuthenticator('http://alpha.test');
    await addPasskey(alice, stranger, 'Not dave');
    await t.db.updateTable('users').set({ google2fa_enabled: true }).where('id', '=', dave.user.id).execute();
    const pendingCookie = async () => {
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        headers: { host: 'alpha.test' },
        payload: { email: 'dave@alpha.test', password: PASSWORD, remember: false },
      });
      expect(login.json().data.status).toBe('two_factor_required');
      return sessionCookieFrom(login.headers['set-cookie']);
    };
    const step = async (cookie: string, authenticator: SoftAuthenticator) => {
      const options = await t.app.inject({ method: 'POST', url: '/api/login2fa/passkey/options', headers: { host: 'alpha.test', cookie } });
      expect(options.statusCode, options.body).toBe(200);
      const { challenge_id, options: request } = options.json().data;
      expect(request.allowCredentials).toHaveLength(1);
      return t.app.inject({
        method: 'POST',
        url: '/api/login2fa/passkey',
        headers: { host: 'alpha.test', cookie },
        payload: { challenge_id, response: authenticator.login(request) },
      });
    };
    // Alice's passkey cannot answer for Dave.
    expect((await step(await pendingCookie(), stranger)).statusCode).toBe(401);
    const done = await step(await pendingCookie(), key);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({ status: 'authenticated', user: { email: 'dave@alpha.test' } });
    // Without a pending login there is no second step to take.
    expect((await t.app.inject({ method: 'POST', url: '/api/login2fa/passkey/options', headers: { host: 'alpha.test' } })).statusCode).toBe(
      401,
    );
  });
});
