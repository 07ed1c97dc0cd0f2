import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, superAdmin, type Caller } from '../../../test/hosting.ts';
import type { UserRow } from '../users/queries.ts';

let t: TestApp;
let tenantA: number;
let tenantB: number;
let admin: { user: UserRow; call: Caller };
let alice: { user: UserRow; call: Caller };
let bob: { user: UserRow; call: Caller };
let otherTenantCustomer: { user: UserRow; call: Caller };
let root: { user: UserRow; call: Caller };
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestApp();
  tenantA = await addTenant(t, 'Alpha Hosting', 'alpha.test', ['ns1.alpha.test', 'ns2.alpha.test']);
  tenantB = await addTenant(t, 'Beta Hosting', 'beta.test');
  admin = await addUser(t, tenantA, 'admin@alpha.test', 'host_admin');
  alice = await addUser(t, tenantA, 'alice@alpha.test', 'customer', ['Alice', 'Adams']);
  bob = await addUser(t, tenantA, 'bob@alpha.test');
  otherTenantCustomer = await addUser(t, tenantB, 'carol@beta.test');
  root = await superAdmin(t);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const create = (call: Caller, payload: Record<string, unknown>) => call({ method: 'POST', url: '/api/host/domain', payload });
const list = async (call: Caller, query: Record<string, string | number> = {}) => {
  const answer = await call({
    method: 'GET',
    url: '/api/host/domain',
    query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as {
    data: { id: number; name: string; text: string; expired: boolean; expire_at: string | null; owner: { id: number } }[];
    next_cursor: string | null;
  };
};
/** Every page of a listing, following next_cursor. */
const walk = async (call: Caller, query: Record<string, string | number>) => {
  const names: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await list(call, { ...query, ...(cursor ? { cursor } : {}) });
    names.push(...page.data.map((d) => d.name));
    cursor = page.next_cursor;
  } while (cursor);
  return names;
};

describe('POST /api/host/domain', () => {
  it('lets a customer add their own domain, with its default zone (SOA, NS of the tenant, mail records, DKIM key)', async () => {
    const answer = await create(alice.call, { name: 'Alice-Shop.com', notes: 'main shop' });
    expect(answer.statusCode, answer.body).toBe(201);
    const domain = answer.json().data;
    expect(domain).toMatchObject({
      name: 'alice-shop.com',
      text: 'alice-shop.com',
      tenant_id: tenantA,
      owner: { id: alice.user.id },
      expire_at: null,
      expired: false,
      notes: 'main shop',
    });
    expect(domain.settings).toEqual({
      document_root: 'public_html',
      php_version: '8.2',
      ssl_redirect: true,
      hsts: false,
      aliases: [],
      www_redirect: 'none',
    });
    expect(domain.counts).toEqual({ users: 0, dns_records: 6 });

    const zone = (await alice.call({ method: 'GET', url: `/api/host/domain/${domain.id}/dns` })).json().data;
    expect(zone.soa).toMatchObject({ mname: 'ns1.alpha.test', rname: 'hostmaster.alice-shop.com', serial: 2026110100 });
    expect(
      zone.records.map((r: { type: string; name: string; content: string }) => `${r.name} ${r.type} ${r.content.slice(0, 24)}`),
    ).toEqual([
      '@ MX mail.alice-shop.com',
      '@ NS ns1.alpha.test',
      '@ NS ns2.alpha.test',
      '@ TXT v=spf1 mx ~all',
      '_dmarc TXT v=DMARC1; p=quarantine; ',
      'berth202611._domainkey TXT v=DKIM1; k=rsa; p=MIIBIj',
    ]);
    // Without the tenant's hosting address, mail.<domain> has nowhere to point: the check says so.
    expect(zone.mail.checks.map((check: { kind: string; state: string; reason: string }) => `${check.kind} ${check.reason}`)).toEqual([
      'mx mx_no_address',
      'spf spf_ok',
      'dkim dkim_ok',
      'dmarc dmarc_ok',
    ]);
    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'domain.created')
      .where('target_id', '=', String(domain.id))
      .executeTakeFirst();
    expect(audit).toMatchObject({ tenant_id: tenantA, user_id: alice.user.id, target_type: 'domain', ip: '127.0.0.1' });
  });

  it('points a new zone at the hosting server of the tenant once the operator sets its addresses: every mail check passes', async () => {
    const invalid = await root.call({
      method: 'PATCH',
      url: `/api/system/tenants/${tenantA}`,
      payload: { hosting_ipv4: '203.0.113.300', hosting_ipv6: '2001:db8::zz' },
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors).toEqual({
      hosting_ipv4: ['Enter an IPv4 address, for example 203.0.113.10.'],
      hosting_ipv6: ['Enter an IPv6 address, for example 2001:db8::10.'],
    });
    const set = await root.call({
      method: 'PATCH',
      url: `/api/system/tenants/${tenantA}`,
      payload: { hosting_ipv4: '203.0.113.10', hosting_ipv6: '2001:db8::10' },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toMatchObject({ hosting_ipv4: '203.0.113.10', hosting_ipv6: '2001:db8::10' });

    const answer = await create(alice.call, { name: 'alice-hosted.com' });
    expect(answer.statusCode, answer.body).toBe(201);
    const zone = (await alice.call({ method: 'GET', url: `/api/host/domain/${answer.json().data.id}/dns` })).json().data;
    expect(
      zone.records.map((r: { type: string; name: string; content: string }) => `${r.name} ${r.type} ${r.content.slice(0, 24)}`),
    ).toEqual([
      '@ A 203.0.113.10',
      '@ AAAA 2001:db8::10',
      '@ MX mail.alice-hosted.com',
      '@ NS ns1.alpha.test',
      '@ NS ns2.alpha.test',
      '@ TXT v=spf1 mx ~all',
      '_dmarc TXT v=DMARC1; p=quarantine; ',
      'berth202611._domainkey TXT v=DKIM1; k=rsa; p=MIIBIj',
      'mail A 203.0.113.10',
      'mail AAAA 2001:db8::10',
      'webmail CNAME alice-hosted.com',
      'www CNAME alice-hosted.com',
    ]);
    expect(zone.mail.checks.map((check: { state: string }) => check.state)).toEqual(['ok', 'ok', 'ok', 'ok']);

    const cleared = await root.call({
      method: 'PATCH',
      url: `/api/system/tenants/${tenantA}`,
      payload: { hosting_ipv4: null, hosting_ipv6: null },
    });
    expect(cleared.json().data).toMatchObject({ hosting_ipv4: null, hosting_ipv6: null });
  });

  it('stores an IDN in punycode and refuses it again in either spelling', async () => {
    const answer = await create(alice.call, { name: 'Bücher.example' });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json().data).toMatchObject({ name: 'xn--bcher-kva.example', text: 'bücher.example' });
    for (const name of ['xn--bcher-kva.example', 'BÜCHER.example.', 'bücher.EXAMPLE']) {
      const again = await create(bob.call, { name });
      expect(again.statusCode).toBe(422);
      expect(again.json().errors.name).toEqual(['This domain already exists in the panel.']);
    }
  });

  it('accepts only real host names', async () => {
    for (const name of [
      'localhost',
      '1.2.3.4',
      '-dash.com',
      'under_score.com',
      'xn--zz.com',
      'exa mple.com',
      `${'a'.repeat(64)}.com`,
      'a..b.com',
      'example.c0m',
      '*.example.com',
    ]) {
      const answer = await create(alice.call, { name });
      expect(answer.statusCode, name).toBe(422);
      expect(answer.json().errors.name, name).toHaveLength(1);
    }
    const missing = await create(alice.call, {});
    expect(missing.json().errors.name).toEqual(['This field is required.']);
  });

  it('leaves owner and expiry to admins', async () => {
    expect((await create(alice.call, { name: 'mine.net', owner_id: bob.user.id })).statusCode).toBe(403);
    expect((await create(alice.call, { name: 'mine.net', expire_at: '2027-01-01' })).statusCode).toBe(403);
    const own = await create(alice.call, { name: 'mine.net', owner_id: alice.user.id });
    expect(own.statusCode).toBe(201);
  });

  it('lets an admin choose an owner they administer and set the expiry', async () => {
    const answer = await create(admin.call, { name: 'bobs-bakery.de', owner_id: bob.user.id, expire_at: '2027-03-01' });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json().data).toMatchObject({ owner: { id: bob.user.id }, tenant_id: tenantA, expire_at: '2027-03-01T00:00:00.000Z' });
    const foreign = await create(admin.call, { name: 'foreign-owner.de', owner_id: otherTenantCustomer.user.id });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.owner_id).toEqual(['Choose an owner from your customers.']);
    expect((await create(admin.call, { name: 'nobody.de', owner_id: 999_999 })).json().errors.owner_id).toBeDefined();
    // A super admin creates in the owner's tenant.
    const bySuper = await create(root.call, { name: 'carols.org', owner_id: otherTenantCustomer.user.id });
    expect(bySuper.json().data).toMatchObject({ tenant_id: tenantB, owner: { id: otherTenantCustomer.user.id } });
  });

  it('turns two concurrent creates of one name into one domain and one 422 on name', async () => {
    const answers = await Promise.all([create(alice.call, { name: 'race.example' }), create(bob.call, { name: 'RACE.example' })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 422]);
    expect(answers.find((a) => a.statusCode === 422)?.json().errors.name).toEqual(['This domain already exists in the panel.']);
    // More at once, so that on PostgreSQL several pass the first check and meet at the unique index.
    const many = await Promise.all(
      Array.from({ length: 6 }, (_, i) => create(i % 2 ? alice.call : bob.call, { name: 'race-many.example' })),
    );
    expect(many.map((a) => a.statusCode).sort()).toEqual([201, 422, 422, 422, 422, 422]);
    for (const answer of many.filter((a) => a.statusCode === 422)) expect(answer.json().errors.name).toHaveLength(1);
    const rows = await t.db.selectFrom('domains').select('id').where('name', '=', 'race.example').execute();
    expect(rows).toHaveLength(1);
    expect(await t.db.selectFrom('dns_zones').select('domain_id').where('domain_id', '=', rows[0]!.id).execute()).toHaveLength(1);
  });
});

describe('GET /api/host/domain', () => {
  beforeAll(async () => {
    const now = t.clock.now().getTime();
    const names = ['harbor-shop.com', 'harbor-labs.net', 'anchor.org', 'reef-harbor.eu', 'coral.io', 'tide-harbor.cz', 'zeta.com'];
    for (const [i, name] of names.entries()) {
      const expireAt = i === 0 ? new Date(now - DAY).toISOString() : i % 3 === 0 ? null : new Date(now + (i + 1) * 10 * DAY).toISOString();
      const answer = await create(admin.call, {
        name,
        owner_id: i % 2 ? alice.user.id : bob.user.id,
        ...(expireAt ? { expire_at: expireAt } : {}),
      });
      expect(answer.statusCode, answer.body).toBe(201);
    }
  });

  it('scopes the list: own domains, the tenant for a host admin, all for a super admin', async () => {
    const own = await walk(alice.call, { limit: 3 });
    const rows = await t.db.selectFrom('domains').select(['name', 'owner_id', 'tenant_id']).execute();
    expect(own.sort()).toEqual(
      rows
        .filter((r) => r.owner_id === alice.user.id)
        .map((r) => r.name)
        .sort(),
    );
    expect((await walk(admin.call, { limit: 4 })).sort()).toEqual(
      rows
        .filter((r) => r.tenant_id === tenantA)
        .map((r) => r.name)
        .sort(),
    );
    expect((await walk(root.call, { limit: 100 })).length).toBe(rows.length);
    expect(await walk(root.call, { tenant_id: tenantB })).toEqual(['carols.org']);
  });

  it('sorts by name or expiry, both ways, across keyset pages', async () => {
    const all = await t.db.selectFrom('domains').select(['name', 'id', 'expire_at']).where('tenant_id', '=', tenantA).execute();
    const byName = [...all].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id)).map((d) => d.name);
    expect(await walk(admin.call, { sort: 'name', limit: 2 })).toEqual(byName);
    expect(await walk(admin.call, { sort: '-name', limit: 3 })).toEqual([...byName].reverse());
    const key = (d: { expire_at: Date | null }) => (d.expire_at ? new Date(d.expire_at).getTime() : Infinity);
    const byExpiry = [...all].sort((a, b) => key(a) - key(b) || a.id - b.id).map((d) => d.name);
    expect(await walk(admin.call, { sort: 'expire_at', limit: 2 })).toEqual(byExpiry);
    expect(await walk(admin.call, { sort: '-expire_at', limit: 5 })).toEqual([...byExpiry].reverse());
  });

  it('marks expired domains', async () => {
    const page = await list(admin.call, { q: 'harbor-shop' });
    expect(page.data[0]).toMatchObject({ name: 'harbor-shop.com', expired: true });
    expect((await list(admin.call, { q: 'coral' })).data[0]?.expired).toBe(false);
  });

  it('searches name prefixes first, then names containing the term, in pages', async () => {
    expect(await walk(admin.call, { q: 'harbor', limit: 50 })).toEqual([
      'harbor-labs.net',
      'harbor-shop.com',
      'reef-harbor.eu',
      'tide-harbor.cz',
    ]);
    expect(await walk(admin.call, { q: 'HARBOR', limit: 1 })).toEqual([
      'harbor-labs.net',
      'harbor-shop.com',
      'reef-harbor.eu',
      'tide-harbor.cz',
    ]);
    expect(await walk(admin.call, { q: 'harbor', limit: 2 })).toEqual([
      'harbor-labs.net',
      'harbor-shop.com',
      'reef-harbor.eu',
      'tide-harbor.cz',
    ]);
    expect(await walk(admin.call, { q: 'harbor', sort: '-name', limit: 3 })).toEqual([
      'harbor-shop.com',
      'harbor-labs.net',
      'tide-harbor.cz',
      'reef-harbor.eu',
    ]);
    expect(await walk(alice.call, { q: 'harbor' })).toEqual(['harbor-labs.net', 'reef-harbor.eu', 'tide-harbor.cz']);
    // By expiry: prefix matches by expiry, then the others by expiry (harbor-shop expired, harbor-labs in 20 days;
    // reef-harbor has no expiry, tide-harbor expires in 60 days).
    expect(await walk(admin.call, { q: 'harbor', sort: 'expire_at', limit: 1 })).toEqual([
      'harbor-shop.com',
      'harbor-labs.net',
      'tide-harbor.cz',
      'reef-harbor.eu',
    ]);
    expect(await walk(admin.call, { q: 'harbor', sort: '-expire_at', limit: 3 })).toEqual([
      'harbor-labs.net',
      'harbor-shop.com',
      'reef-harbor.eu',
      'tide-harbor.cz',
    ]);
    expect(await walk(admin.call, { q: 'bücher' })).toEqual(['xn--bcher-kva.example']);
    expect(await walk(admin.call, { q: '%' })).toEqual([]);
    expect(await walk(admin.call, { q: 'nothing-like-this' })).toEqual([]);
  });

  it('rejects bad cursors and foreign filters', async () => {
    const bad = await admin.call({ method: 'GET', url: '/api/host/domain', query: { cursor: 'not-a-cursor' } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.cursor).toBeDefined();
    const page = await list(admin.call, { limit: 1 });
    const otherSort = await admin.call({ method: 'GET', url: '/api/host/domain', query: { cursor: page.next_cursor!, sort: 'expire_at' } });
    expect(otherSort.statusCode).toBe(422);
    expect((await admin.call({ method: 'GET', url: '/api/host/domain', query: { tenant_id: String(tenantB) } })).statusCode).toBe(404);
    expect((await alice.call({ method: 'GET', url: '/api/host/domain', query: { owner_id: String(bob.user.id) } })).statusCode).toBe(404);
    expect((await admin.call({ method: 'GET', url: '/api/host/domain', query: { limit: '1000' } })).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/api/host/domain' })).statusCode).toBe(401);
  });
});

describe('GET, PATCH, DELETE /api/host/domain/:id', () => {
  let id: number;
  beforeAll(async () => {
    id = (await create(admin.call, { name: 'edit-me.com', owner_id: alice.user.id })).json().data.id;
  });

  it('shows a domain to its owner and admins only', async () => {
    expect((await alice.call({ method: 'GET', url: `/api/host/domain/${id}` })).json().data.name).toBe('edit-me.com');
    expect((await admin.call({ method: 'GET', url: `/api/host/domain/${id}` })).statusCode).toBe(200);
    expect((await bob.call({ method: 'GET', url: `/api/host/domain/${id}` })).statusCode).toBe(404);
    expect((await otherTenantCustomer.call({ method: 'GET', url: `/api/host/domain/${id}` })).statusCode).toBe(404);
    expect((await alice.call({ method: 'GET', url: '/api/host/domain/99999999999' })).statusCode).toBe(422);
  });

  it('lets the owner change settings and notes, but not owner or expiry', async () => {
    const answer = await alice.call({
      method: 'PATCH',
      url: `/api/host/domain/${id}`,
      payload: { notes: 'hello', settings: { php_version: '8.4', hsts: true } },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toMatchObject({
      notes: 'hello',
      settings: { php_version: '8.4', hsts: true, ssl_redirect: true, document_root: 'public_html' },
    });
    expect((await alice.call({ method: 'PATCH', url: `/api/host/domain/${id}`, payload: { expire_at: '2030-01-01' } })).statusCode).toBe(
      403,
    );
    expect((await alice.call({ method: 'PATCH', url: `/api/host/domain/${id}`, payload: { owner_id: bob.user.id } })).statusCode).toBe(403);
    const bad = await alice.call({
      method: 'PATCH',
      url: `/api/host/domain/${id}`,
      payload: { settings: { document_root: '../etc', php_version: '5.6' } },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['settings.document_root', 'settings.php_version']);
  });

  it('lets an admin move the domain to another owner and set its expiry', async () => {
    const answer = await admin.call({
      method: 'PATCH',
      url: `/api/host/domain/${id}`,
      payload: { owner_id: bob.user.id, expire_at: '2028-05-05T12:00:00+02:00' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toMatchObject({ owner: { id: bob.user.id }, expire_at: '2028-05-05T10:00:00.000Z' });
    expect((await alice.call({ method: 'GET', url: `/api/host/domain/${id}` })).statusCode).toBe(404);
    const cleared = await admin.call({ method: 'PATCH', url: `/api/host/domain/${id}`, payload: { expire_at: null } });
    expect(cleared.json().data.expire_at).toBeNull();
    expect(
      (await admin.call({ method: 'PATCH', url: `/api/host/domain/${id}`, payload: { owner_id: otherTenantCustomer.user.id } })).statusCode,
    ).toBe(422);
  });

  it('moves users, records and zone along when a super admin gives the domain to another tenant', async () => {
    const domain = (await create(admin.call, { name: 'moving.com', owner_id: alice.user.id })).json().data;
    await alice.call({
      method: 'POST',
      url: `/api/host/domain/${domain.id}/users`,
      payload: { uid: 'info', password: 'mailbox passphrase 2026', password_confirmation: 'mailbox passphrase 2026' },
    });
    const moved = await root.call({
      method: 'PATCH',
      url: `/api/host/domain/${domain.id}`,
      payload: { owner_id: otherTenantCustomer.user.id },
    });
    expect(moved.json().data.tenant_id).toBe(tenantB);
    for (const table of ['domain_users', 'dns_records', 'dns_zones'] as const) {
      const tenants = await t.db.selectFrom(table).select('tenant_id').where('domain_id', '=', domain.id).execute();
      expect(tenants.length, table).toBeGreaterThan(0);
      expect(new Set(tenants.map((r) => r.tenant_id)), table).toEqual(new Set([tenantB]));
    }
  });

  it('deletes a domain with its users, records and zone after the name is repeated', async () => {
    const domain = (await create(alice.call, { name: 'gone-soon.com' })).json().data;
    await alice.call({
      method: 'POST',
      url: `/api/host/domain/${domain.id}/users`,
      payload: { uid: 'info', password: 'mailbox passphrase 2026', password_confirmation: 'mailbox passphrase 2026' },
    });
    await alice.call({
      method: 'POST',
      url: `/api/host/domain/${domain.id}/dns`,
      payload: { name: 'www', type: 'A', content: '192.0.2.1' },
    });

    const unconfirmed = await alice.call({ method: 'DELETE', url: `/api/host/domain/${domain.id}` });
    expect(unconfirmed.statusCode).toBe(422);
    expect(unconfirmed.json().errors.confirm).toEqual(['Type the domain name to confirm the deletion.']);
    expect(
      (await bob.call({ method: 'DELETE', url: `/api/host/domain/${domain.id}`, query: { confirm: 'gone-soon.com' } })).statusCode,
    ).toBe(404);

    const deleted = await alice.call({ method: 'DELETE', url: `/api/host/domain/${domain.id}`, query: { confirm: 'Gone-Soon.com' } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().message).toBe('The domain gone-soon.com and its users and DNS records have been deleted.');
    for (const table of ['domain_users', 'dns_records', 'dns_zones'] as const) {
      expect(await t.db.selectFrom(table).select('domain_id').where('domain_id', '=', domain.id).execute(), table).toEqual([]);
    }
    expect((await alice.call({ method: 'GET', url: `/api/host/domain/${domain.id}` })).statusCode).toBe(404);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['user_id', 'data'])
      .where('action', '=', 'domain.deleted')
      .where('target_id', '=', String(domain.id))
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ user_id: alice.user.id, data: { name: 'gone-soon.com' } });
  });
});
