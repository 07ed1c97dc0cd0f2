import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDNS_TEMPLATE } from '../../daemons/powerdns.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, type Caller } from '../../../test/hosting.ts';

// PowerDNS asks Berth's schema pdns (views, and the records table of migration 0050) for every question, several times, its caches off. The
// lookups it makes most, by its query log (`query-logging=yes`, bench/src/dns-throughput.ts), are
// PowerDNS 4.7's stock gpgsql queries below: each must reach its rows through an index, planned as
// PowerDNS plans them (once per connection, generic) with the settings deploy/powerdns/pdns.conf
// gives its connection. A new view or join without an index shows here as a Seq Scan.
const LOOKUPS: Record<string, { text: string; parameters: (zone: ZoneIds) => unknown[] }> = {
  'basic-query (the SOA of every name asked)': {
    text: 'SELECT content,ttl,prio,type,domain_id,disabled::int,name,auth::int FROM records WHERE disabled=false and type=$1 and name=$2',
    parameters: (zone) => ['SOA', zone.name],
  },
  'id-query': {
    text: 'SELECT content,ttl,prio,type,domain_id,disabled::int,name,auth::int FROM records WHERE disabled=false and type=$1 and name=$2 and domain_id=$3',
    parameters: (zone) => ['A', `www.${zone.name}`, zone.id],
  },
  'any-query': {
    text: 'SELECT content,ttl,prio,type,domain_id,disabled::int,name,auth::int FROM records WHERE disabled=false and name=$1',
    parameters: (zone) => [`www.${zone.name}`],
  },
  'any-id-query (the records of a name in its zone)': {
    text: 'SELECT content,ttl,prio,type,domain_id,disabled::int,name,auth::int FROM records WHERE disabled=false and name=$1 and domain_id=$2',
    parameters: (zone) => [`www.${zone.name}`, zone.id],
  },
  'get-all-domain-metadata-query (the most frequent)': {
    text: 'select kind,content from domains, domainmetadata where domainmetadata.domain_id=domains.id and name=$1',
    parameters: (zone) => [zone.name],
  },
  'get-domain-metadata-query': {
    text: 'select content from domains, domainmetadata where domainmetadata.domain_id=domains.id and name=$1 and domainmetadata.kind=$2',
    parameters: (zone) => [zone.name, 'PRESIGNED'],
  },
  'info-zone-query': {
    text: 'select id,name,master,last_check,notified_serial,type,options,catalog,account from domains where name=$1',
    parameters: (zone) => [zone.name],
  },
  'list-domain-keys-query': {
    text: 'select cryptokeys.id, flags, case when active then 1 else 0 end as active, case when published then 1 else 0 end as published, content from domains, cryptokeys where cryptokeys.domain_id=domains.id and name=$1',
    parameters: (zone) => [zone.name],
  },
};

interface ZoneIds {
  id: number;
  name: string;
}

/** The `-c name=value` settings of PowerDNS's database connection, as deploy/powerdns/pdns.conf gives them. */
function connectionSettings(): [string, string][] {
  const conf = readFileSync(PDNS_TEMPLATE, 'utf8');
  const options = /^gpgsql-extra-connection-parameters=options='([^']*)'$/m.exec(conf)?.[1] ?? '';
  return [...options.matchAll(/-c (\w+)=(\S+)/g)].map((match) => [match[1] ?? '', match[2] ?? '']);
}

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };
const scans = (node: PlanNode): string[] => [
  ...(node['Relation Name'] ? [`${node['Node Type']} on ${node['Relation Name']}`] : []),
  ...(node.Plans ?? []).flatMap(scans),
];

let t: TestApp;
let owner: { call: Caller };
let zone: ZoneIds;

beforeAll(async () => {
  t = await createTestApp();
  const tenantId = await addTenant(t, 'Alpha', 'alpha.test', ['ns1.alpha.test', 'ns2.alpha.test']);
  owner = await addUser(t, tenantId, 'owner@alpha.test', 'host_admin');
  // A few zones with a delegation and an empty non-terminal, so every branch of the views has rows.
  for (const name of ['plans.example', 'other.example', 'third.example']) {
    const id = (await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name } })).json().data.id as number;
    for (const record of [
      { name: 'www', type: 'A', content: '192.0.2.10' },
      { name: 'a.b', type: 'A', content: '192.0.2.11' },
      { name: 'sub', type: 'NS', content: 'ns.elsewhere.example' },
    ]) {
      const answer = await owner.call({ method: 'POST', url: `/api/host/domain/${id}/dns`, payload: { ttl: 3600, ...record } });
      expect(answer.statusCode, answer.body).toBe(201);
    }
    zone ??= { id, name };
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe("PowerDNS's lookups on Berth's views", () => {
  it('read pdns.conf: generic plans on the views, sequential scans off', () => {
    expect(Object.fromEntries(connectionSettings())).toEqual({
      search_path: 'pdns',
      plan_cache_mode: 'force_generic_plan',
      enable_seqscan: 'off',
    });
  });

  for (const [lookup, { text, parameters }] of Object.entries(LOOKUPS)) {
    it(`${lookup}: every table through an index`, async () => {
      const found = await t.db.transaction().execute(async (trx) => {
        for (const [name, value] of connectionSettings()) await sql.raw(`set local ${name} = ${value}`).execute(trx);
        await sql.raw(`prepare lookup as ${text}`).execute(trx);
        try {
          const args = parameters(zone).map((value) => (typeof value === 'number' ? String(value) : `'${String(value)}'`));
          const { rows } = await sql<{
            'QUERY PLAN': unknown;
          }>`${sql.raw(`explain (format json) execute lookup(${args.join(', ')})`)}`.execute(trx);
          const plan = rows[0]?.['QUERY PLAN'];
          const document = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[];
          const answer = await sql.raw(`execute lookup(${args.join(', ')})`).execute(trx);
          return { scans: scans(document[0]!.Plan), rows: answer.rows.length };
        } finally {
          await sql.raw('deallocate lookup').execute(trx);
        }
      });
      expect(found.scans.length).toBeGreaterThan(0);
      expect(found.scans.filter((scan) => !/^(Index Scan|Index Only Scan|Bitmap Heap Scan) on /.test(scan))).toEqual([]);
      // The zone's names are answered (metadata and keys: none kept for a zone that is not signed).
      if (!/metadata|keys/.test(lookup)) expect(found.rows).toBeGreaterThan(0);
    });
  }
});
