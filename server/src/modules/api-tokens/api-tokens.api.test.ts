import type { InjectOptions } from 'fastify';
import { API_TOKEN_SCOPES, API_TOKENS_PER_USER_MAX } from '@berth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, type Caller } from '../../../test/hosting.ts';
import { sha256 } from '../../lib/tokens.ts';
import type { UserRow } from '../users/queries.ts';

// Personal API tokens: made once and shown once, only their hash kept; `Authorization: Bearer` on
// the routes of their scopes and on nothing else (tokens, passwords, 2FA, sessions); expiry by the
// controllable clock, address blocks, revocation at once, bound to their tenant's hosts.

let t: TestApp;
let tenantA: number;
let owner: { user: UserRow; call: Caller };
let admin: { user: UserRow; call: Caller };
let stranger: { user: UserRow; call: Caller };
let domainId: number;
const HOUR = 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestApp();
  tenantA = await addTenant(t, 'Alpha', 'alpha.test');
  const tenantB = await addTenant(t, 'Beta', 'beta.test');
  owner = await addUser(t, tenantA, 'owner@alpha.test');
  admin = await addUser(t, tenantA, 'admin@alpha.test', 'host_admin');
  stranger = await addUser(t, tenantB, 'admin@beta.test', 'host_admin');
  domainId = (await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'tokens.example' } })).json().data.id;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function newToken(who: { call: Caller }, payload: Record<string, unknown>) {
  const answer = await who.call({ method: 'POST', url: '/api/account/api-tokens', payload: { name: 'ci', ...payload } });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data as { id: number; token: string; prefix: string };
}
const withToken = (token: string, options: InjectOptions, host = 'alpha.test') =>
  t.app.inject({ ...options, headers: { host, authorization: `Bearer ${token}`, ...options.headers } });

/** One call per area and kind, with the scope it needs (null: no token may make it). */
const CALLS: [string, InjectOptions, string | null][] = [
  ['list domains', { method: 'GET', url: '/api/host/domain' }, 'domains:read'],
  ['change a domain', { method: 'PATCH', url: '/api/host/domain/:domain', payload: { notes: 'by token' } }, 'domains:write'],
  ['read the zone', { method: 'GET', url: '/api/host/domain/:domain/dns' }, 'dns:read'],
  [
    'add a record',
    { method: 'POST', url: '/api/host/domain/:domain/dns', payload: { name: 'api', type: 'A', content: '192.0.2.9' } },
    'dns:write',
  ],
  ['list mailboxes', { method: 'GET', url: '/api/host/domain/:domain/users' }, 'mail:read'],
  ['list forwarders', { method: 'GET', url: '/api/host/domain/:domain/aliases' }, 'mail:read'],
  [
    'add a forwarder',
    { method: 'POST', url: '/api/host/domain/:domain/aliases', payload: { local_part: 'x', destination: 'a@b.example' } },
    'mail:write',
  ],
  ['read the cart', { method: 'GET', url: '/api/cart' }, 'shop:read'],
  ['list invoices', { method: 'GET', url: '/api/account/invoices' }, 'shop:read'],
  ['list customers', { method: 'GET', url: '/api/system/customers' }, 'customers:read'],
  ['manage tokens', { method: 'GET', url: '/api/account/api-tokens' }, null],
  ['start 2FA', { method: 'POST', url: '/api/account/2fa/setup', payload: { password: 'x' } }, null],
  [
    'change the password',
    {
      method: 'PATCH',
      url: '/api/account/password',
      payload: { current_password: 'x', password: 'a new long passphrase 77', password_confirmation: 'a new long passphrase 77' },
    },
    null,
  ],
  ['list sessions', { method: 'GET', url: '/api/account/sessions' }, null],
  ['read the audit log', { method: 'GET', url: '/api/system/audit' }, null],
];

describe('API tokens', () => {
  it('shows a new token once and keeps only its hash', async () => {
    const created = await owner.call({
      method: 'POST',
      url: '/api/account/api-tokens',
      payload: { name: 'Deploy script', scopes: ['dns:read', 'dns:write'], allowed_ips: ['192.0.2.0/24', '2001:DB8::/32'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const data = created.json().data;
    expect(data.token).toMatch(/^berth_[A-Za-z0-9_-]{43}$/);
    expect(data).toMatchObject({ name: 'Deploy script', prefix: data.token.slice(0, 12), scopes: ['dns:read', 'dns:write'] });
    expect(data.allowed_ips).toEqual(['192.0.2.0/24', '2001:db8::/32']);
    expect(created.json().message).toBe('The token has been created. Copy it now: it will not be shown again.');
    const listed = (await owner.call({ method: 'GET', url: '/api/account/api-tokens' })).json().data;
    expect(listed.find((token: { id: number }) => token.id === data.id)).not.toHaveProperty('token');
    const row = await t.db.selectFrom('api_tokens').selectAll().where('id', '=', data.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(data.token));
    expect(JSON.stringify(row)).not.toContain(data.token);
  });

  it('refuses bad input on its fields', async () => {
    const bad = async (payload: Record<string, unknown>, who = owner) =>
      (await who.call({ method: 'POST', url: '/api/account/api-tokens', payload: { name: 'x', scopes: ['dns:read'], ...payload } })).json();
    expect((await bad({ scopes: [] })).errors.scopes).toEqual(['Choose at least one scope.']);
    expect((await bad({ scopes: ['dns:admin'] })).errors).toHaveProperty('scopes.0');
    expect((await bad({ scopes: ['customers:read'] })).errors.scopes).toEqual([
      'Only administrators may give a token access to customers.',
    ]);
    expect((await bad({ expires_at: new Date(t.clock.now().getTime() - 1000).toISOString() })).errors.expires_at).toEqual([
      'Choose an expiry in the future.',
    ]);
    expect((await bad({ allowed_ips: ['10.0.0.0/8', '10.0.0.0/33', 'not an ip'] })).errors).toEqual({
      'allowed_ips.1': ['Enter an address or block such as 192.0.2.0/24 or 2001:db8::/32.'],
      'allowed_ips.2': ['Enter an address or block such as 192.0.2.0/24 or 2001:db8::/32.'],
    });
  });

  it('opens exactly the routes of its scopes: every scope against every kind of call', async () => {
    for (const scope of API_TOKEN_SCOPES) {
      const { token } = await newToken(scope.startsWith('customers') ? admin : owner, { name: scope, scopes: [scope] });
      for (const [what, options, needed] of CALLS) {
        const answer = await withToken(token, { ...options, url: options.url?.toString().replace(':domain', String(domainId)) });
        if (needed === scope) expect(answer.statusCode, `${scope} may ${what}: ${answer.body}`).not.toBe(403);
        else expect(answer.statusCode, `${scope} may not ${what}`).toBe(403);
      }
      // Any token may ask whom it acts for.
      expect((await withToken(token, { method: 'GET', url: '/api/user' })).statusCode).toBe(200);
      await owner.call({
        method: 'DELETE',
        url: `/api/account/api-tokens/${(await t.db.selectFrom('api_tokens').select('id').where('token_hash', '=', sha256(token)).executeTakeFirstOrThrow()).id}`,
      });
    }
  });

  it('says which scope is missing, and acts as its user', async () => {
    const { token } = await newToken(owner, { scopes: ['dns:read'] });
    const refused = await withToken(token, { method: 'GET', url: '/api/host/domain' });
    expect(refused.json().message).toBe('This API token lacks the scope domains:read.');
    const me = await withToken(token, { method: 'GET', url: '/api/user' });
    expect(me.json().data.user.email).toBe('owner@alpha.test');
    const zone = await withToken(token, { method: 'GET', url: `/api/host/domain/${domainId}/dns` });
    expect(zone.statusCode).toBe(200);
    expect(zone.json().data.zone).toBe('tokens.example');
  });

  it('stops at its expiry, by the clock', async () => {
    const expiresAt = new Date(t.clock.now().getTime() + HOUR).toISOString();
    const { token } = await newToken(owner, { scopes: ['domains:read'], expires_at: expiresAt });
    expect((await withToken(token, { method: 'GET', url: '/api/host/domain' })).statusCode).toBe(200);
    t.clock.advance(HOUR - 1000);
    expect((await withToken(token, { method: 'GET', url: '/api/host/domain' })).statusCode).toBe(200);
    t.clock.advance(1000);
    const expired = await withToken(token, { method: 'GET', url: '/api/host/domain' });
    expect(expired.statusCode).toBe(401);
    expect(expired.headers['www-authenticate']).toBe('Bearer');
  });

  it('works only from its address blocks, and only on its tenant', async () => {
    const { token } = await newToken(owner, { scopes: ['domains:read'], allowed_ips: ['10.0.0.0/8', '2001:db8::/32'] });
    const from = (remoteAddress: string) => withToken(token, { method: 'GET', url: '/api/host/domain', remoteAddress });
    expect((await from('127.0.0.1')).statusCode).toBe(401);
    expect((await from('10.20.30.40')).statusCode).toBe(200);
    expect((await from('::ffff:10.1.1.1')).statusCode).toBe(200);
    expect((await from('2001:db8::7')).statusCode).toBe(200);
    expect((await from('2001:db9::7')).statusCode).toBe(401);
    // The token of a customer of Alpha is nobody on Beta's host.
    expect((await withToken(token, { method: 'GET', url: '/api/host/domain', remoteAddress: '10.0.0.1' }, 'beta.test')).statusCode).toBe(
      401,
    );
  });

  it('is refused from the next request on once revoked, by its owner or an admin of the tenant', async () => {
    const first = await newToken(owner, { scopes: ['domains:read'] });
    expect((await withToken(first.token, { method: 'GET', url: '/api/host/domain' })).statusCode).toBe(200);
    expect((await owner.call({ method: 'DELETE', url: `/api/account/api-tokens/${first.id}` })).json().message).toBe(
      'The token has been revoked.',
    );
    expect((await withToken(first.token, { method: 'GET', url: '/api/host/domain' })).statusCode).toBe(401);

    const second = await newToken(owner, { scopes: ['domains:read'] });
    // Another tenant's admin sees nothing of it; the tenant's admin lists and revokes it.
    expect((await stranger.call({ method: 'DELETE', url: `/api/system/api-tokens/${second.id}` })).statusCode).toBe(404);
    const listed = (await admin.call({ method: 'GET', url: '/api/system/api-tokens' })).json().data;
    expect(listed.find((token: { id: number }) => token.id === second.id)).toMatchObject({ owner: { email: 'owner@alpha.test' } });
    expect((await stranger.call({ method: 'GET', url: '/api/system/api-tokens' })).json().data).toEqual([]);
    expect((await owner.call({ method: 'GET', url: '/api/system/api-tokens' })).statusCode).toBe(403);
    expect((await admin.call({ method: 'DELETE', url: `/api/system/api-tokens/${second.id}` })).statusCode).toBe(200);
    expect((await withToken(second.token, { method: 'GET', url: '/api/host/domain' })).statusCode).toBe(401);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'user_id'])
      .where('target_id', '=', String(second.id))
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'api_token.created', user_id: owner.user.id },
      { action: 'api_token.revoked', user_id: admin.user.id },
    ]);
  });

  it('never falls back to the cookie when a token is sent, and an unknown token is 401', async () => {
    const answer = await owner.call({ method: 'GET', url: '/api/host/domain', headers: { authorization: 'Bearer berth_unknown' } });
    expect(answer.statusCode).toBe(401);
    expect(answer.json().message).toBe('The API token is not valid: unknown, revoked, expired, or not allowed from this address.');
  });

  it(`holds the limit of ${API_TOKENS_PER_USER_MAX} tokens when 30 requests arrive at once`, async () => {
    const user = await addUser(t, tenantA, 'many@alpha.test');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        user.call({ method: 'POST', url: '/api/account/api-tokens', payload: { name: `t${i}`, scopes: ['dns:read'] } }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(API_TOKENS_PER_USER_MAX);
    expect(answers.filter((a) => a.statusCode === 422).map((a) => a.json().message)).toEqual(
      Array(30 - API_TOKENS_PER_USER_MAX).fill(`You have ${API_TOKENS_PER_USER_MAX} tokens already. Revoke one first.`),
    );
    const stored = await t.db.selectFrom('api_tokens').select('id').where('user_id', '=', user.user.id).execute();
    expect(stored).toHaveLength(API_TOKENS_PER_USER_MAX);
  });

  it("are declared in the OpenAPI document: the bearer scheme and each operation's scope", async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    const zone = doc.paths['/api/host/domain/{id}/dns'];
    expect(zone.get['x-token-scope']).toBe('dns:read');
    expect(zone.post['x-token-scope']).toBe('dns:write');
    expect(zone.get.security).toEqual([{ session: [] }, { apiToken: [] }]);
    expect(zone.get.description).toContain('API token scope: `dns:read`.');
    expect(doc.paths['/api/account/api-tokens'].get.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/user'].get['x-token-scope']).toBe('any');
    // Public routes say nothing of either.
    expect(doc.paths['/api/login'].post.security).toBeUndefined();
  });
});
