import { API_TOKEN_SCOPES } from '@berth/contracts';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, hostOf, PASSWORD, sessionFor, type Caller } from '../../../test/hosting.ts';
import type { UserRow } from '../users/queries.ts';

// A leaked API token must stay a token: it never becomes a cookie session (of its owner or of a
// customer), never ends one, and never touches another person's account security. The chain found
// from outside was: customers:write token → log in as a customer → new token of any scope →
// back to the admin's own session, past the admin's second factor, alive after revoking the token.

let t: TestApp;
let tenantA: number;
let host: string;
let admin: { user: UserRow; call: Caller };
let customer: { user: UserRow; call: Caller };
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  tenantA = await addTenant(t, 'Alpha', 'alpha.test');
  host = await hostOf(t, tenantA);
  admin = await addUser(t, tenantA, 'admin@alpha.test', 'host_admin', ['Ada', 'Admin']);
  customer = await addUser(t, tenantA, 'cleo@alpha.test', 'customer', ['Cleo', 'Customer']);
  // The admin protects the account with a second factor: a token must not be a way around it.
  await t.db.updateTable('users').set({ google2fa_enabled: true }).where('id', '=', admin.user.id).execute();
  const made = await admin.call({
    method: 'POST',
    url: '/api/account/api-tokens',
    payload: { name: 'automation', scopes: API_TOKEN_SCOPES },
  });
  expect(made.statusCode, made.body).toBe(201);
  token = made.json().data.token;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const withToken = (options: InjectOptions) =>
  t.app.inject({ ...options, headers: { host, authorization: `Bearer ${token}`, ...options.headers } });
const setsSession = (answer: LightMyRequestResponse) =>
  ([answer.headers['set-cookie'] ?? []].flat() as string[]).some((cookie) => /berth_session=/.test(cookie));

describe('an API token never becomes a session', () => {
  it('cannot log in as a customer, so the chain to a full admin session breaks at its first step', async () => {
    const started = await withToken({ method: 'POST', url: `/api/system/customers/${customer.user.id}/impersonate` });
    expect(started.statusCode, started.body).toBe(403);
    expect(started.json().message).toBe('API tokens cannot be used for this. Sign in to do it.');
    expect(setsSession(started)).toBe(false);
    expect(await t.db.selectFrom('session_impersonations').select('session_id_hash').execute()).toEqual([]);
    // Nothing to stop, nothing to swap back into the admin's session.
    const stopped = await withToken({ method: 'POST', url: '/api/impersonation/stop' });
    expect(stopped.statusCode).toBe(403);
    expect(setsSession(stopped)).toBe(false);
    // And a token reaches none of what the chain went for.
    for (const url of ['/api/account/sessions', '/api/account/api-tokens', '/api/account/2fa', '/api/system/audit']) {
      expect((await withToken({ method: 'GET', url })).statusCode, url).toBe(403);
    }
    expect(
      (await withToken({ method: 'POST', url: '/api/account/api-tokens', payload: { name: 'x', scopes: ['dns:read'] } })).statusCode,
    ).toBe(403);
    // The only sessions are the two the fixtures made.
    expect(
      Number(
        (
          await t.db
            .selectFrom('sessions')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(2);
  });

  it("cannot touch a customer's second factor, lock or e-mail; contact data it may change", async () => {
    for (const action of ['reset-2fa', 'lock', 'unlock']) {
      const answer = await withToken({ method: 'POST', url: `/api/system/customers/${customer.user.id}/${action}` });
      expect(answer.statusCode, action).toBe(403);
    }
    const email = await withToken({
      method: 'PATCH',
      url: `/api/system/customers/${customer.user.id}`,
      payload: { email: 'attacker@evil.example' },
    });
    expect(email.statusCode).toBe(403);
    const row = await t.db.selectFrom('users').select(['email', 'locked_at']).where('id', '=', customer.user.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ email: 'cleo@alpha.test', locked_at: null });
    const contact = await withToken({
      method: 'PATCH',
      url: `/api/system/customers/${customer.user.id}`,
      payload: { contact: { given_name: 'Cleopatra' } },
    });
    expect(contact.statusCode, contact.body).toBe(200);
    // The signed-in admin still can.
    expect((await admin.call({ method: 'POST', url: `/api/system/customers/${customer.user.id}/lock` })).statusCode).toBe(200);
    expect((await admin.call({ method: 'POST', url: `/api/system/customers/${customer.user.id}/unlock` })).statusCode).toBe(200);
  });

  it('does not log out, and leaves a cookie sent beside it alone', async () => {
    const cookie = await sessionFor(t, admin.user);
    const answer = await withToken({ method: 'POST', url: '/api/logout', headers: { cookie } });
    expect(answer.statusCode).toBe(403);
    expect(answer.headers['set-cookie']).toBeUndefined();
    const still = await t.app.inject({ method: 'GET', url: '/api/user', headers: { host, cookie } });
    expect(still.json().data.user.id).toBe(admin.user.id);
  });

  // Every route that issues, swaps or ends a cookie session, each with a body that would succeed
  // or get far: refused with a bearer before anything runs, and no cookie set.
  const SIGN_IN_ROUTES: [string, () => InjectOptions][] = [
    ['POST /api/login', () => ({ method: 'POST', url: '/api/login', payload: { email: 'cleo@alpha.test', password: PASSWORD } })],
    ['POST /api/logout', () => ({ method: 'POST', url: '/api/logout' })],
    ['POST /api/login2fa', () => ({ method: 'POST', url: '/api/login2fa', payload: { code: '123456' } })],
    ['POST /api/login2fa/recovery', () => ({ method: 'POST', url: '/api/login2fa/recovery', payload: { code: 'abcd-efgh-ijkl' } })],
    ['POST /api/login/passkey', () => ({ method: 'POST', url: '/api/login/passkey', payload: { response: {} } })],
    ['POST /api/login2fa/passkey', () => ({ method: 'POST', url: '/api/login2fa/passkey', payload: { response: {} } })],
    [
      'POST /api/password/otplogin',
      () => ({ method: 'POST', url: '/api/password/otplogin', payload: { email: 'cleo@alpha.test', code: '12345678' } }),
    ],
    [
      'POST /api/password/reset',
      () => ({ method: 'POST', url: '/api/password/reset/abc/def', payload: { password: PASSWORD, password_confirmation: PASSWORD } }),
    ],
    ['PATCH /api/register/verify', () => ({ method: 'PATCH', url: '/api/register/verify', payload: { code: 'x'.repeat(40) } })],
    [
      'POST /api/system/customers/:id/impersonate',
      () => ({ method: 'POST', url: `/api/system/customers/${customer.user.id}/impersonate` }),
    ],
    ['POST /api/impersonation/stop', () => ({ method: 'POST', url: '/api/impersonation/stop' })],
  ];
  it.each(SIGN_IN_ROUTES)('%s refuses a bearer request', async (_, options) => {
    const answer = await withToken(options());
    expect(answer.statusCode, answer.body).toBe(403);
    expect(answer.json().message).toBe('API tokens cannot be used for this. Sign in to do it.');
    expect(setsSession(answer)).toBe(false);
  });

  it('the same login without the token signs in (the refusal is the token, not the body)', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { host },
      payload: { email: 'cleo@alpha.test', password: PASSWORD },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(setsSession(answer)).toBe(true);
  });

  it('no operation of the API document sets or ends a session for a bearer request', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const cookie = await sessionFor(t, admin.user);
    let calls = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const method of Object.keys(operations)) {
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) => (name === 'id' ? String(customer.user.id) : '1'));
        const answer = await withToken({
          method: method.toUpperCase() as 'POST',
          url,
          headers: { cookie },
          payload: method === 'get' ? undefined : {},
        });
        calls += 1;
        expect(setsSession(answer), `${method} ${path}`).toBe(false);
      }
    }
    expect(calls).toBeGreaterThan(100);
    const still = await t.app.inject({ method: 'GET', url: '/api/user', headers: { host, cookie } });
    expect(still.statusCode).toBe(200);
  });
});
