import { sql, type Kysely } from 'kysely';
import { RECORDS_VIEW_0023 } from './0023_dns_complete_zones.ts';
import { DOMAINS_VIEW_0025 } from './0025_dns_secondaries.ts';

/** pdns.records as of this migration (0029 goes back to it). */
export const RECORDS_VIEW_0028 = `create or replace view pdns.records as
    select -z.domain_id::bigint as id, z.domain_id, z.name, 'SOA'::text as type, z.soa_content as content,
      3600 as ttl, 0 as prio, false as disabled, ''::text as ordername, true as auth
    from public.dns_zones z
    where z.served
    union all
    select r.id::bigint, r.domain_id, r.fqdn, r.type, r.served_content, r.ttl, coalesce(r.priority, 0), r.disabled, r.ordername,
      not exists (
        select 1 from public.dns_records n
        where n.domain_id = r.domain_id and n.type = 'NS' and n.name <> '@' and not n.disabled
          and (r.name = n.name or right(r.name, length(n.name) + 1) = '.' || n.name)
      )
    from public.dns_records r
    where r.served
    union all
    select -(10000000000 + e.id), e.domain_id, e.fqdn, null::text, null::text, null::int, null::int, false, e.ordername,
      not exists (
        select 1 from public.dns_records n
        where n.domain_id = e.domain_id and n.type = 'NS' and n.name <> '@' and not n.disabled
          and right(e.name, length(n.name) + 1) = '.' || n.name
      )
    from public.dns_empty_nonterminals e
    where e.served`;

/**
 * PowerDNS's lookups without a join (bench/src/dns-throughput.ts: its views against its own
 * tables). A zone, record or empty non-terminal of a domain still waiting for its proof (0019) is
 * not served; the views asked the domain on every lookup, a join in each branch of pdns.records
 * and in pdns.domains, which every question of PowerDNS reads several times with its caches off.
 * Each row now carries `served`, set from its domain when it is written and when the domain's proof
 * changes, so the views read one table per branch through its own index. pdns.domains' tenant and
 * announced serial are left joins: PowerDNS's metadata lookup, its most frequent, reads neither
 * and the planner leaves both out.
 */
const TABLES = ['dns_zones', 'dns_records', 'dns_empty_nonterminals'] as const;

const statements = [
  ...TABLES.map((table) => `alter table public.${table} add column served boolean not null default false`),
  ...TABLES.map(
    (table) => `update public.${table} x set served = true from public.domains d where d.id = x.domain_id and d.verification_token is null`,
  ),
  `create function public.dns_row_served() returns trigger language plpgsql as $$
    begin
      new.served := exists (select 1 from public.domains d where d.id = new.domain_id and d.verification_token is null);
      return new;
    end $$`,
  ...TABLES.map(
    (table) => `create trigger ${table}_served_flag before insert or update of domain_id on public.${table}
      for each row execute function public.dns_row_served()`,
  ),
  `create function public.domains_proof_changed() returns trigger language plpgsql as $$
    begin
      update public.dns_zones set served = (new.verification_token is null) where domain_id = new.id;
      update public.dns_records set served = (new.verification_token is null) where domain_id = new.id;
      update public.dns_empty_nonterminals set served = (new.verification_token is null) where domain_id = new.id;
      return null;
    end $$`,
  `create trigger domains_proof_changed after update of verification_token on public.domains
    for each row when ((old.verification_token is null) <> (new.verification_token is null))
    execute function public.domains_proof_changed()`,
  // The same columns as 0023's and 0025's views (create or replace keeps the daemons' grants).
  RECORDS_VIEW_0028,
  `create or replace view pdns.domains as
    select z.domain_id as id, z.name, null::varchar(128) as master, null::int as last_check,
      (case when jsonb_array_length(t.dns_secondaries) > 0 then 'MASTER' else 'NATIVE' end)::text as type,
      n.serial as notified_serial, null::varchar(40) as account, null::text as options, null::text as catalog
    from public.dns_zones z
      left join public.tenants t on t.id = z.tenant_id
      left join pdns.zone_notified n on n.domain_id = z.domain_id
    where z.served`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const reverse = [
    DOMAINS_VIEW_0025,
    RECORDS_VIEW_0023,
    'drop trigger domains_proof_changed on public.domains',
    'drop function public.domains_proof_changed()',
    ...TABLES.map((table) => `drop trigger ${table}_served_flag on public.${table}`),
    'drop function public.dns_row_served()',
    ...TABLES.map((table) => `alter table public.${table} drop column served`),
  ];
  for (const statement of reverse) await sql.raw(statement).execute(db);
}
