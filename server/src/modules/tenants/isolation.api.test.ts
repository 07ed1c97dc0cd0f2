import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, hostOf, superAdmin, type Caller } from '../../../test/hosting.ts';
import type { UserRow } from '../users/queries.ts';

/*
 * The isolation matrix: two tenants, each with a host admin and two customers who own a domain
 * with a domain user and DNS records. Every route of the hosting area is called by every role
 * against ids that are not theirs; the answer must be 404 (403 where the role may not enter the
 * area at all), and nothing in the database may change.
 */

type Role = 'customer' | 'host_admin' | 'super_admin';
interface Fixture {
  user: UserRow;
  call: Caller;
  domain: { id: number; name: string; userId: number; recordId: number; aliasId: number };
}
interface Tenant {
  id: number;
  admin: { user: UserRow; call: Caller };
  customers: [Fixture, Fixture];
}

let t: TestApp;
let a: Tenant;
let b: Tenant;
let root: { user: UserRow; call: Caller };
let logo: Buffer;
const NOWHERE = 2_147_483_647;
const PASS = 'mailbox passphrase 2026';

async function tenantWithCustomers(prefix: string): Promise<Tenant> {
  const id = await addTenant(t, `${prefix} Hosting`, `${prefix}.test`, [`ns1.${prefix}.test`]);
  const admin = await addUser(t, id, `admin@${prefix}.test`, 'host_admin');
  const customers = [] as unknown as [Fixture, Fixture];
  for (const n of [1, 2]) {
    const customer = await addUser(t, id, `c${n}@${prefix}.test`);
    const name = `${prefix}-c${n}.example`;
    const domain = (await customer.call({ method: 'POST', url: '/api/host/domain', payload: { name } })).json().data;
    const account = (
      await customer.call({
        method: 'POST',
        url: `/api/host/domain/${domain.id}/users`,
        payload: { uid: 'info', password: PASS, password_confirmation: PASS },
      })
    ).json().data;
    const record = (
      await customer.call({
        method: 'POST',
        url: `/api/host/domain/${domain.id}/dns`,
        payload: { name: 'www', type: 'A', content: '192.0.2.1' },
      })
    ).json().data;
    const alias = (
      await customer.call({
        method: 'POST',
        url: `/api/host/domain/${domain.id}/aliases`,
        payload: { local_part: 'sales', destination: 'team@elsewhere.example' },
      })
    ).json().data;
    customers.push({ ...customer, domain: { id: domain.id, name, userId: account.id, recordId: record.id, aliasId: alias.id } });
  }
  return { id, admin, customers };
}

beforeAll(async () => {
  t = await createTestApp();
  root = await superAdmin(t);
  a = await tenantWithCustomers('alpha');
  b = await tenantWithCustomers('beta');
  logo = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** Every table the hosting area writes, in full (sessions too: no call may create or end one). */
async function snapshot(): Promise<string> {
  const tables = [
    'tenants',
    'tenant_hosts',
    'tenant_logos',
    'users',
    'sessions',
    'session_impersonations',
    'domains',
    'domain_users',
    'mail_aliases',
    'dns_zones',
    'dns_records',
    'notifications',
    'domain_expiry_reminders',
    'audit_log',
    'recovery_codes',
  ] as const;
  const rows: Record<string, unknown[]> = {};
  for (const table of tables) rows[table] = await t.db.selectFrom(table).selectAll().execute();
  for (const list of Object.values(rows)) list.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  return JSON.stringify(rows);
}

/** What a role may not see: its foreign domain, customer and tenant, and an object of its own to combine them with. */
interface Target {
  domain: { id: number; name: string; userId: number; recordId: number; aliasId: number };
  ownDomainId: number;
  customer: { id: number; email: string };
  owner: number;
  tenantId: number;
  tenantUserId: number;
}

type Area = 'hosting' | 'customers' | 'customer-body' | 'tenants' | 'admin-list' | 'domain-list';
/** 403: the role may not enter the area; 404: a foreign id; 422: a foreign id in a body field (read as unknown). */
const EXPECTED: Record<Area, Record<Role, number>> = {
  hosting: { customer: 404, host_admin: 404, super_admin: 404 },
  'domain-list': { customer: 404, host_admin: 404, super_admin: 404 },
  customers: { customer: 403, host_admin: 404, super_admin: 404 },
  'customer-body': { customer: 403, host_admin: 422, super_admin: 422 },
  'admin-list': { customer: 403, host_admin: 404, super_admin: 404 },
  tenants: { customer: 403, host_admin: 403, super_admin: 404 },
};

interface Call {
  name: string;
  area: Area;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  query?: Record<string, string>;
  payload?: unknown;
  headers?: Record<string, string>;
}

function multipart(content: Buffer) {
  const boundary = 'matrix-boundary';
  return {
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="l.png"\r\nContent-Type: image/png\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function callsAgainst(x: Target): Call[] {
  const d = `/api/host/domain/${x.domain.id}`;
  const own = `/api/host/domain/${x.ownDomainId}`;
  const c = `/api/system/customers/${x.customer.id}`;
  const tn = `/api/system/tenants/${x.tenantId}`;
  const account = { uid: 'new', password: PASS, password_confirmation: PASS };
  const record = { name: 'x', type: 'A', content: '192.0.2.2' };
  const customer = { email: 'new@x.test', contact: { given_name: 'N', sn: 'N' }, password: 'initial passphrase 2026' };
  return [
    {
      name: 'list domains of a foreign owner',
      area: 'domain-list',
      method: 'GET',
      url: '/api/host/domain',
      query: { owner_id: String(x.owner) },
    },
    {
      name: 'list domains of a foreign tenant',
      area: 'domain-list',
      method: 'GET',
      url: '/api/host/domain',
      query: { tenant_id: String(x.tenantId) },
    },
    {
      name: 'create a domain for a foreign owner',
      area: 'customer-body',
      method: 'POST',
      url: '/api/host/domain',
      payload: { name: 'stolen.example', owner_id: x.owner },
    },
    { name: 'read a domain', area: 'hosting', method: 'GET', url: d },
    { name: 'change a domain', area: 'hosting', method: 'PATCH', url: d, payload: { notes: 'mine now' } },
    { name: 'delete a domain', area: 'hosting', method: 'DELETE', url: d, query: { confirm: x.domain.name } },
    { name: "read a domain's menu", area: 'hosting', method: 'GET', url: `${d}/menu` },
    { name: 'list domain users', area: 'hosting', method: 'GET', url: `${d}/users` },
    { name: 'create a domain user', area: 'hosting', method: 'POST', url: `${d}/users`, payload: account },
    { name: 'read a domain user', area: 'hosting', method: 'GET', url: `${d}/users/${x.domain.userId}` },
    { name: 'change a domain user', area: 'hosting', method: 'PATCH', url: `${d}/users/${x.domain.userId}`, payload: { enabled: false } },
    {
      name: "reset a domain user's password",
      area: 'hosting',
      method: 'POST',
      url: `${d}/users/${x.domain.userId}/password`,
      payload: { password: PASS, password_confirmation: PASS },
    },
    { name: 'delete a domain user', area: 'hosting', method: 'DELETE', url: `${d}/users/${x.domain.userId}` },
    { name: 'read a foreign domain user through an own domain', area: 'hosting', method: 'GET', url: `${own}/users/${x.domain.userId}` },
    {
      name: 'change a foreign domain user through an own domain',
      area: 'hosting',
      method: 'PATCH',
      url: `${own}/users/${x.domain.userId}`,
      payload: { quota_mb: 1 },
    },
    {
      name: 'reset a foreign password through an own domain',
      area: 'hosting',
      method: 'POST',
      url: `${own}/users/${x.domain.userId}/password`,
      payload: { password: PASS, password_confirmation: PASS },
    },
    {
      name: 'delete a foreign domain user through an own domain',
      area: 'hosting',
      method: 'DELETE',
      url: `${own}/users/${x.domain.userId}`,
    },
    { name: 'list forwarders', area: 'hosting', method: 'GET', url: `${d}/aliases` },
    {
      name: 'add a forwarder',
      area: 'hosting',
      method: 'POST',
      url: `${d}/aliases`,
      payload: { local_part: 'x', destination: 'a@b.example' },
    },
    { name: 'remove a forwarder', area: 'hosting', method: 'DELETE', url: `${d}/aliases/${x.domain.aliasId}` },
    {
      name: 'remove a foreign forwarder through an own domain',
      area: 'hosting',
      method: 'DELETE',
      url: `${own}/aliases/${x.domain.aliasId}`,
    },
    { name: 'read a zone', area: 'hosting', method: 'GET', url: `${d}/dns` },
    { name: 'add a record', area: 'hosting', method: 'POST', url: `${d}/dns`, payload: record },
    { name: 'change a record', area: 'hosting', method: 'PATCH', url: `${d}/dns/${x.domain.recordId}`, payload: { content: '192.0.2.3' } },
    { name: 'delete a record', area: 'hosting', method: 'DELETE', url: `${d}/dns/${x.domain.recordId}` },
    {
      name: 'change a foreign record through an own domain',
      area: 'hosting',
      method: 'PATCH',
      url: `${own}/dns/${x.domain.recordId}`,
      payload: { content: '192.0.2.3' },
    },
    { name: 'delete a foreign record through an own domain', area: 'hosting', method: 'DELETE', url: `${own}/dns/${x.domain.recordId}` },
    {
      name: "list a foreign tenant's customers",
      area: 'admin-list',
      method: 'GET',
      url: '/api/system/customers',
      query: { tenant_id: String(x.tenantId) },
    },
    {
      name: 'create a customer in a foreign tenant',
      area: 'customer-body',
      method: 'POST',
      url: '/api/system/customers',
      payload: { ...customer, tenant_id: NOWHERE },
    },
    { name: 'read a customer', area: 'customers', method: 'GET', url: c },
    { name: 'change a customer', area: 'customers', method: 'PATCH', url: c, payload: { language: 'de' } },
    { name: 'delete a customer', area: 'customers', method: 'DELETE', url: c, query: { confirm: x.customer.email } },
    { name: 'lock a customer', area: 'customers', method: 'POST', url: `${c}/lock` },
    { name: 'unlock a customer', area: 'customers', method: 'POST', url: `${c}/unlock` },
    { name: "reset a customer's 2FA", area: 'customers', method: 'POST', url: `${c}/reset-2fa` },
    { name: 'log in as a customer', area: 'customers', method: 'POST', url: `${c}/impersonate` },
    { name: 'list tenants', area: 'tenants', method: 'GET', url: '/api/system/tenants' },
    {
      name: 'create a tenant',
      area: 'tenants',
      method: 'POST',
      url: '/api/system/tenants',
      payload: { title: 'Evil', hosts: ['evil.test'] },
    },
    { name: 'read a tenant', area: 'tenants', method: 'GET', url: tn },
    { name: 'change a tenant', area: 'tenants', method: 'PATCH', url: tn, payload: { title: 'Evil' } },
    { name: 'upload a logo', area: 'tenants', method: 'POST', url: `${tn}/logo/admin_logo`, ...multipart(logo) },
    { name: 'read a stored logo', area: 'tenants', method: 'GET', url: `${tn}/logo/admin_logo` },
    { name: 'remove a logo', area: 'tenants', method: 'DELETE', url: `${tn}/logo/admin_logo` },
    { name: 'assign a host admin', area: 'tenants', method: 'POST', url: `${tn}/admins`, payload: { user_id: x.tenantUserId } },
    { name: 'remove a host admin', area: 'tenants', method: 'DELETE', url: `${tn}/admins/${x.tenantUserId}` },
    {
      name: "read a foreign tenant's audit log",
      area: 'admin-list',
      method: 'GET',
      url: '/api/system/audit',
      query: { tenant_id: String(x.tenantId) },
    },
  ];
}

/** The tenants module's own list call has no id: for a super admin a nonexistent tenant is simply not found. */
const expectedFor = (role: Role, call: Call): number => {
  if (role === 'super_admin' && call.name === 'list tenants') return 200;
  if (role === 'super_admin' && call.name === 'create a tenant') return 201;
  return EXPECTED[call.area][role];
};

describe('tenant and customer isolation', () => {
  it('answers every hosting route called with a foreign id with 404 (403 for areas the role may not enter), changing nothing', async () => {
    const before = await snapshot();
    const [a1, a2] = a.customers;
    const [b1] = b.customers;
    const cases: [Role, string, Caller, Target][] = [
      [
        'customer',
        'customer → other customer of the same tenant',
        a1.call,
        {
          domain: a2.domain,
          ownDomainId: a1.domain.id,
          customer: { id: a2.user.id, email: a2.user.email },
          owner: a2.user.id,
          tenantId: b.id,
          tenantUserId: a2.user.id,
        },
      ],
      [
        'customer',
        'customer → customer of another tenant',
        a1.call,
        {
          domain: b1.domain,
          ownDomainId: a1.domain.id,
          customer: { id: b1.user.id, email: b1.user.email },
          owner: b1.user.id,
          tenantId: b.id,
          tenantUserId: b1.user.id,
        },
      ],
      [
        'host_admin',
        'host admin → another tenant',
        a.admin.call,
        {
          domain: b1.domain,
          ownDomainId: a1.domain.id,
          customer: { id: b1.user.id, email: b1.user.email },
          owner: b1.user.id,
          tenantId: b.id,
          tenantUserId: b1.user.id,
        },
      ],
      [
        'host_admin',
        'host admin (B) → tenant A',
        b.admin.call,
        {
          domain: a2.domain,
          ownDomainId: b1.domain.id,
          customer: { id: a2.user.id, email: a2.user.email },
          owner: a2.user.id,
          tenantId: a.id,
          tenantUserId: a2.user.id,
        },
      ],
      [
        'super_admin',
        'super admin → ids that do not exist',
        root.call,
        {
          domain: { id: NOWHERE, name: 'none.example', userId: NOWHERE, recordId: NOWHERE, aliasId: NOWHERE },
          ownDomainId: a1.domain.id,
          customer: { id: NOWHERE, email: 'x@x' },
          owner: NOWHERE,
          tenantId: NOWHERE,
          tenantUserId: NOWHERE,
        },
      ],
    ];
    const mismatches: string[] = [];
    let count = 0;
    for (const [role, label, call, target] of cases) {
      for (const request of callsAgainst(target)) {
        // A super admin's successful tenant create would change the database: checked apart below.
        if (role === 'super_admin' && request.name === 'create a tenant') continue;
        const answer = await call({
          method: request.method,
          url: request.url,
          query: request.query,
          payload: request.payload as never,
          headers: request.headers,
        });
        count++;
        const expected = expectedFor(role, request);
        if (answer.statusCode !== expected)
          mismatches.push(
            `${label}: ${request.name} (${request.method} ${request.url}) → ${answer.statusCode}, expected ${expected}: ${answer.body.slice(0, 200)}`,
          );
        else if (expected === 404 && answer.json().message !== 'Not found.')
          mismatches.push(`${label}: ${request.name} says "${answer.json().message}"`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(count).toBeGreaterThan(5 * 40);
    expect(await snapshot()).toBe(before);
  }, 120_000);

  it('gives a full-scope API token no more than its customer, and nothing at all on another tenant', async () => {
    const [a1, a2] = a.customers;
    const [b1] = b.customers;
    const scopes = ['domains', 'dns', 'mail', 'shop'].flatMap((area) => [`${area}:read`, `${area}:write`]);
    const tokenOf = async (who: Fixture) =>
      (await who.call({ method: 'POST', url: '/api/account/api-tokens', payload: { name: 'matrix', scopes } })).json().data.token as string;
    const byToken =
      (token: string, tenantId: number): Caller =>
      async (options) =>
        t.app.inject({ ...options, headers: { ...options.headers, host: await hostOf(t, tenantId), authorization: `Bearer ${token}` } });
    const a1Token = byToken(await tokenOf(a1), a.id);
    // B's customer's token, sent to A's host: bound to its tenant, it is nobody there.
    const b1TokenOnA = byToken(await tokenOf(b1), a.id);
    const before = await snapshot();
    const targets: [string, Target][] = [
      [
        'token → other customer of the same tenant',
        {
          domain: a2.domain,
          ownDomainId: a1.domain.id,
          customer: { id: a2.user.id, email: a2.user.email },
          owner: a2.user.id,
          tenantId: b.id,
          tenantUserId: a2.user.id,
        },
      ],
      [
        'token → customer of another tenant',
        {
          domain: b1.domain,
          ownDomainId: a1.domain.id,
          customer: { id: b1.user.id, email: b1.user.email },
          owner: b1.user.id,
          tenantId: b.id,
          tenantUserId: b1.user.id,
        },
      ],
    ];
    const mismatches: string[] = [];
    let answeredAsCustomer = 0;
    for (const [label, target] of targets) {
      for (const request of callsAgainst(target)) {
        const options = {
          method: request.method,
          url: request.url,
          query: request.query,
          payload: request.payload as never,
          headers: request.headers,
        };
        const answer = await a1Token(options);
        const customer = expectedFor('customer', request);
        // Routes closed to tokens answer 403 before any id is looked at; the rest as for the customer.
        const closed = answer.statusCode === 403 && answer.json().message === 'API tokens cannot be used for this. Sign in to do it.';
        if (!closed) answeredAsCustomer++;
        if (answer.statusCode !== customer && !closed)
          mismatches.push(`${label}: ${request.name} → ${answer.statusCode}, expected ${customer}: ${answer.body.slice(0, 160)}`);
        const foreign = await b1TokenOnA(options);
        if (foreign.statusCode !== 401) mismatches.push(`foreign token: ${request.name} → ${foreign.statusCode}`);
      }
    }
    expect(mismatches).toEqual([]);
    // The hosting routes themselves are open to the token (and refuse the foreign ids).
    expect(answeredAsCustomer).toBeGreaterThan(30);
    expect(await snapshot()).toBe(before);
  }, 120_000);

  it('lists only what each role may see', async () => {
    const names = async (call: Caller) =>
      ((await call({ method: 'GET', url: '/api/host/domain', query: { limit: '100' } })).json().data as { name: string }[]).map(
        (d) => d.name,
      );
    expect(await names(a.customers[0].call)).toEqual(['alpha-c1.example']);
    expect(await names(a.admin.call)).toEqual(['alpha-c1.example', 'alpha-c2.example']);
    expect(await names(b.admin.call)).toEqual(['beta-c1.example', 'beta-c2.example']);
    expect((await names(root.call)).length).toBe(4);
    const customers = async (call: Caller) =>
      ((await call({ method: 'GET', url: '/api/system/customers' })).json().data as { email: string }[]).map((c) => c.email);
    expect(await customers(a.admin.call)).toEqual(['c1@alpha.test', 'c2@alpha.test']);
    const audit = (await b.admin.call({ method: 'GET', url: '/api/system/audit', query: { limit: '100' } })).json().data as {
      tenant_id: number;
    }[];
    expect(audit.length).toBeGreaterThan(0);
    expect(audit.every((e) => e.tenant_id === b.id)).toBe(true);
    const dashboard = (await a.customers[0].call({ method: 'GET', url: '/api/dashboard' })).json().data;
    expect(dashboard).toMatchObject({ domains: 1, domain_users: 1 });
  });

  it('documents every hosting route in the OpenAPI document', async () => {
    const paths = Object.keys((await t.app.inject({ url: '/api/docs/json' })).json().paths as Record<string, unknown>);
    const documented = new Set(paths.map((path) => path.replace(/\{[^}]+\}/g, ':')));
    const called = new Set(
      callsAgainst({
        domain: { id: 1, name: 'x', userId: 2, recordId: 3, aliasId: 8 },
        ownDomainId: 4,
        customer: { id: 5, email: 'x' },
        owner: 6,
        tenantId: 7,
        tenantUserId: 8,
      }).map((call) => call.url.replace(/\/\d+/g, '/:').replace(/\/logo\/admin_logo$/, '/logo/:')),
    );
    for (const extra of ['/api/dashboard', '/api/impersonation', '/api/impersonation/stop', '/api/tenant/logo/:']) called.add(extra);
    expect([...called].filter((path) => !documented.has(path))).toEqual([]);
  });
});
