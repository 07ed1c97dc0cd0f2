import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SERVED_ROWS } from '../../db/migrations/0050_pdns_served_table.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, type Caller } from '../../../test/hosting.ts';

// What PowerDNS reads (schema pdns, migrations 0009 and 0012) is kept by triggers as records,
// zones and tenants change: the SOA text with the zone's primary name server and serial, absolute
// names, TXT text in quoted strings. Since migration 0050 pdns.records is a table the triggers
// write: after every test it must hold exactly what the view it replaced (SERVED_ROWS) would show. The daemon tests ask PowerDNS itself
// (server/test/daemons/powerdns.daemon.test.ts); these read the rows, on both databases.

let t: TestApp;
let owner: { call: Caller };
let tenantId: number;
let domainId: number;

beforeAll(async () => {
  t = await createTestApp();
  tenantId = await addTenant(t, 'Alpha', 'alpha.test', ['ns1.alpha.test', 'ns2.alpha.test']);
  // The tenant's admin: the names admins add are served at once (a customer's own waits for its proof).
  owner = await addUser(t, tenantId, 'owner@alpha.test', 'host_admin');
  domainId = (await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'rows.example' } })).json().data.id;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** Rows the table has and the view's query has not, and the other way round. */
const drift = async () => {
  const { rows } = await sql<{ side: string; id: string }>`
    (select 'only in the table' as side, id::text, name, type, content from (
      select * from pdns.records except select * from (${sql.raw(SERVED_ROWS)}) v) a)
    union all
    (select 'only in the view', id::text, name, type, content from (
      select * from (${sql.raw(SERVED_ROWS)}) v except select * from pdns.records) b)`.execute(t.db);
  return rows;
};
afterEach(async () => {
  expect(await drift()).toEqual([]);
});

const served = (name: string, type: string) =>
  sql<{
    content: string;
    ordername: string;
    auth: boolean;
  }>`select content, ordername, auth from pdns.records where name = ${name} and type = ${type} order by id`
    .execute(t.db)
    .then((result) => result.rows);
const soa = async () => (await served('rows.example', 'SOA'))[0]?.content;
const serial = async () => (await owner.call({ method: 'GET', url: `/api/host/domain/${domainId}/dns` })).json().data.soa.serial as number;
const add = async (payload: Record<string, unknown>) => {
  const answer = await owner.call({ method: 'POST', url: `/api/host/domain/${domainId}/dns`, payload: { ttl: 3600, ...payload } });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data.id as number;
};

describe('the rows PowerDNS reads', () => {
  it("serves the SOA with the zone's own first NS, else the tenant's, and the serial of the page", async () => {
    // The default zone's NS records are the tenant's name servers.
    expect(await soa()).toBe(`ns1.alpha.test hostmaster.rows.example ${await serial()} 10800 3600 1209600 3600`);
    const nsIds = (await owner.call({ method: 'GET', url: `/api/host/domain/${domainId}/dns` }))
      .json()
      .data.records.filter((r: { type: string }) => r.type === 'NS')
      .map((r: { id: number }) => r.id);
    for (const id of nsIds) await owner.call({ method: 'DELETE', url: `/api/host/domain/${domainId}/dns/${id}` });
    // No NS record of its own: the tenant's first name server, also after the tenant changes them.
    expect(await soa()).toBe(`ns1.alpha.test hostmaster.rows.example ${await serial()} 10800 3600 1209600 3600`);
    await t.db
      .updateTable('tenants')
      .set({ name_servers: sql`'["dns1.beta.test"]'::jsonb` as unknown as string[] })
      .where('id', '=', tenantId)
      .execute();
    expect(await soa()).toMatch(/^dns1\.beta\.test hostmaster\.rows\.example \d+ /);
    // A zone is never served without NS records: the one that had none got the tenant's new set (migration 0023).
    const records = (await owner.call({ method: 'GET', url: `/api/host/domain/${domainId}/dns` })).json().data.records as {
      id: number;
      type: string;
      content: string;
    }[];
    const ns = records.filter((r) => r.type === 'NS');
    expect(ns.map((r) => r.content)).toEqual(['dns1.beta.test']);
    for (const { id } of ns) await owner.call({ method: 'DELETE', url: `/api/host/domain/${domainId}/dns/${id}` });
    await add({ name: '@', type: 'NS', content: 'ns.own.example' });
    expect(await soa()).toBe(`ns.own.example hostmaster.rows.example ${await serial()} 10800 3600 1209600 3600`);
  });

  it('serves records under their absolute names, TXT in quoted strings, and no auth below a delegation', async () => {
    await add({ name: 'www', type: 'A', content: '192.0.2.7' });
    expect(await served('www.rows.example', 'A')).toEqual([{ content: '192.0.2.7', ordername: 'www', auth: true }]);
    await add({ name: 'a.b', type: 'TXT', content: `say "hi" ${'x'.repeat(300)}` });
    const [txt] = await served('a.b.rows.example', 'TXT');
    expect(txt?.content).toBe(`"say \\"hi\\" ${'x'.repeat(246)}" "${'x'.repeat(54)}"`);
    expect(txt?.ordername).toBe('b a');
    // A delegation: the records at and below it are not the zone's own answers.
    await add({ name: 'b', type: 'NS', content: 'ns.delegated.example' });
    expect((await served('a.b.rows.example', 'TXT'))[0]?.auth).toBe(false);
    // An edit writes the served text again.
    const id = await add({ name: 'edit', type: 'TXT', content: 'first' });
    await owner.call({ method: 'PATCH', url: `/api/host/domain/${domainId}/dns/${id}`, payload: { content: 'second' } });
    expect(await served('edit.rows.example', 'TXT')).toMatchObject([{ content: '"second"' }]);
  });

  it('keeps the auth flag of every row as the delegations of its zone change (migration 0029)', async () => {
    // The flags the rows carry against the rule itself: false at and below an enabled NS record
    // that is not at the apex (empty non-terminals: strictly below).
    const wrong = async () => {
      const { rows } = await sql<{ name: string }>`
        select r.name from dns_records r where r.domain_id = ${domainId} and r.auth = exists (
          select 1 from dns_records n where n.domain_id = r.domain_id and n.type = 'NS' and n.name <> '@' and not n.disabled
            and (r.name = n.name or right(r.name, length(n.name) + 1) = '.' || n.name))
        union all
        select e.name from dns_empty_nonterminals e where e.domain_id = ${domainId} and e.auth = exists (
          select 1 from dns_records n where n.domain_id = e.domain_id and n.type = 'NS' and n.name <> '@' and not n.disabled
            and right(e.name, length(n.name) + 1) = '.' || n.name)`.execute(t.db);
      return rows.map((row) => row.name);
    };
    const auth = async (name: string) =>
      (await sql<{ auth: boolean }>`select auth from pdns.records where name = ${name} order by id`.execute(t.db)).rows.map(
        (row) => row.auth,
      );
    await add({ name: 'x.d', type: 'A', content: '192.0.2.20' });
    await add({ name: 'deep.e.d', type: 'A', content: '192.0.2.21' });
    expect(await auth('x.d.rows.example')).toEqual([true]);
    expect(await auth('e.d.rows.example')).toEqual([true]);
    const delegation = await add({ name: 'd', type: 'NS', content: 'ns.delegated.example' });
    expect(await auth('x.d.rows.example')).toEqual([false]);
    expect(await auth('e.d.rows.example')).toEqual([false]);
    expect(await auth('d.rows.example')).toEqual([false]);
    await add({ name: 'later.d', type: 'A', content: '192.0.2.22' });
    expect(await auth('later.d.rows.example')).toEqual([false]);
    expect(await wrong()).toEqual([]);
    const patch = async (payload: Record<string, unknown>) => {
      const answer = await owner.call({ method: 'PATCH', url: `/api/host/domain/${domainId}/dns/${delegation}`, payload });
      expect(answer.statusCode, answer.body).toBe(200);
    };
    // Switched off, moved, and removed: the zone answers for the names again.
    await patch({ disabled: true });
    expect(await auth('x.d.rows.example')).toEqual([true]);
    expect(await wrong()).toEqual([]);
    await patch({ disabled: false, name: 'e.d' });
    expect(await auth('x.d.rows.example')).toEqual([true]);
    expect(await auth('deep.e.d.rows.example')).toEqual([false]);
    expect(await wrong()).toEqual([]);
    await owner.call({ method: 'DELETE', url: `/api/host/domain/${domainId}/dns/${delegation}` });
    expect(await auth('deep.e.d.rows.example')).toEqual([true]);
    expect(await wrong()).toEqual([]);
  });

  it('serves ACME answers, hides a zone while its domain waits for proof, and forgets a deleted domain (migration 0050)', async () => {
    const other = (await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'acme.example' } })).json().data
      .id as number;
    const challenge = async (name: string) =>
      (
        await t.db
          .insertInto('acme_dns_challenges')
          .values({ domain_id: other, name, token: 'A'.repeat(43), created_at: new Date() })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const txt = async (name: string) =>
      (
        await sql<{ content: string; auth: boolean }>`select content, auth from pdns.records where name = ${name} and type = 'TXT'`.execute(
          t.db,
        )
      ).rows;
    const first = await challenge('_acme-challenge');
    await challenge('_acme-challenge.deep.sub');
    expect(await txt('_acme-challenge.acme.example')).toEqual([{ content: `"${'A'.repeat(43)}"`, auth: true }]);
    expect(await drift()).toEqual([]);
    // A delegation above an answer takes its auth flag, and gives it back when it goes.
    const answer = await owner.call({
      method: 'POST',
      url: `/api/host/domain/${other}/dns`,
      payload: { ttl: 3600, name: 'sub', type: 'NS', content: 'ns.delegated.example' },
    });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(await txt('_acme-challenge.deep.sub.acme.example')).toMatchObject([{ auth: false }]);
    expect(await drift()).toEqual([]);
    await owner.call({ method: 'DELETE', url: `/api/host/domain/${other}/dns/${answer.json().data.id}` });
    expect(await txt('_acme-challenge.deep.sub.acme.example')).toMatchObject([{ auth: true }]);
    await t.db.deleteFrom('acme_dns_challenges').where('id', '=', first).execute();
    expect(await txt('_acme-challenge.acme.example')).toEqual([]);
    expect(await drift()).toEqual([]);
    // Many authorizations of one zone publish and remove their answers at the same instant, while
    // its delegations change (on PostgreSQL, each on a connection of its own).
    const many = await Promise.all(Array.from({ length: 30 }, (_, i) => challenge(`_acme-challenge.n${i}`)));
    expect(await drift()).toEqual([]);
    await Promise.all([
      ...many.map((id) => t.db.deleteFrom('acme_dns_challenges').where('id', '=', id).execute()),
      owner.call({
        method: 'POST',
        url: `/api/host/domain/${other}/dns`,
        payload: { ttl: 3600, name: 'n7', type: 'NS', content: 'ns.x.example' },
      }),
    ]);
    expect(await drift()).toEqual([]);

    // Waiting for its proof, nothing of the domain is served; proven, all of it again.
    const count = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from pdns.records where domain_id = ${other}`.execute(t.db)).rows[0]?.n);
    const servedRows = await count();
    expect(servedRows).toBeGreaterThan(5);
    await t.db.updateTable('domains').set({ verification_token: 'waiting' }).where('id', '=', other).execute();
    expect(await count()).toBe(0);
    expect(await drift()).toEqual([]);
    await t.db.updateTable('domains').set({ verification_token: null }).where('id', '=', other).execute();
    expect(await count()).toBe(servedRows);
    expect(await drift()).toEqual([]);

    await t.db.deleteFrom('domains').where('id', '=', other).execute();
    expect(await count()).toBe(0);
  });
});
