import { sql, type Kysely } from 'kysely';
import { RECORDS_VIEW_0028 } from './0028_dns_served_flag.ts';

/**
 * Whether a record or empty non-terminal is authoritative (false at and below a delegation, an NS
 * record below the apex) kept on the row, so that pdns.records reads it instead of asking every row
 * for the zone's delegations on every lookup: the sub-plans were most of what PowerDNS's lookups
 * cost beyond its own tables (bench/src/dns-throughput.ts). A row gets its flag when it is written
 * (named, moved, retyped, disabled); a delegation added, moved, disabled or removed sets the flag of
 * every row of its zone again, touching only rows whose flag changes.
 */
const BELOW_DELEGATION = (row: string, strictly: boolean) => `exists (
    select 1 from public.dns_records n
    where n.domain_id = ${row}.domain_id and n.type = 'NS' and n.name <> '@' and not n.disabled
      and (${strictly ? '' : `${row}.name = n.name or `}right(${row}.name, length(n.name) + 1) = '.' || n.name))`;

export const RECORDS_VIEW_0029 = `create or replace view pdns.records as
    select -z.domain_id::bigint as id, z.domain_id, z.name, 'SOA'::text as type, z.soa_content as content,
      3600 as ttl, 0 as prio, false as disabled, ''::text as ordername, true as auth
    from public.dns_zones z
    where z.served
    union all
    select r.id::bigint, r.domain_id, r.fqdn, r.type, r.served_content, r.ttl, coalesce(r.priority, 0), r.disabled, r.ordername, r.auth
    from public.dns_records r
    where r.served
    union all
    select -(10000000000 + e.id), e.domain_id, e.fqdn, null::text, null::text, null::int, null::int, false, e.ordername, e.auth
    from public.dns_empty_nonterminals e
    where e.served`;

const statements = [
  'alter table public.dns_records add column auth boolean not null default true',
  'alter table public.dns_empty_nonterminals add column auth boolean not null default true',
  `create function public.dns_refresh_auth(zone integer) returns void language plpgsql as $$
    begin
      update public.dns_records r set auth = not ${BELOW_DELEGATION('r', false)}
        where r.domain_id = zone and r.auth = ${BELOW_DELEGATION('r', false)};
      update public.dns_empty_nonterminals e set auth = not ${BELOW_DELEGATION('e', true)}
        where e.domain_id = zone and e.auth = ${BELOW_DELEGATION('e', true)};
    end $$`,
  // A row as it is written: below another row's delegation, or a delegation itself.
  `create function public.dns_records_auth() returns trigger language plpgsql as $$
    begin
      new.auth := not (${BELOW_DELEGATION('new', false)}
        or (new.type = 'NS' and new.name <> '@' and not new.disabled));
      return new;
    end $$`,
  `create trigger dns_records_auth before insert or update of name, domain_id, type, disabled on public.dns_records
    for each row execute function public.dns_records_auth()`,
  `create function public.dns_empty_nonterminals_auth() returns trigger language plpgsql as $$
    begin
      new.auth := not ${BELOW_DELEGATION('new', true)};
      return new;
    end $$`,
  `create trigger dns_empty_nonterminals_auth before insert or update of name, domain_id on public.dns_empty_nonterminals
    for each row execute function public.dns_empty_nonterminals_auth()`,
  // A delegation that appears, moves, is switched or goes: the other rows of its zone.
  `create function public.dns_records_delegation_changed() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' and old.type = 'NS' and old.name <> '@' then
        perform public.dns_refresh_auth(old.domain_id);
      end if;
      if tg_op <> 'DELETE' and new.type = 'NS' and new.name <> '@'
        and (tg_op = 'INSERT' or old.domain_id <> new.domain_id or old.type <> 'NS' or old.name = '@' or old.name <> new.name) then
        perform public.dns_refresh_auth(new.domain_id);
      elsif tg_op = 'UPDATE' and new.type = 'NS' and new.name <> '@' and old.disabled <> new.disabled then
        perform public.dns_refresh_auth(new.domain_id);
      end if;
      return null;
    end $$`,
  `create trigger dns_records_delegation_changed after insert or delete or update of name, domain_id, type, disabled on public.dns_records
    for each row execute function public.dns_records_delegation_changed()`,
  'select public.dns_refresh_auth(z.domain_id) from public.dns_zones z',
  // The same columns as 0028's view (create or replace keeps the daemons' grants).
  RECORDS_VIEW_0029,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const reverse = [
    RECORDS_VIEW_0028,
    'drop trigger dns_records_delegation_changed on public.dns_records',
    'drop function public.dns_records_delegation_changed()',
    'drop trigger dns_empty_nonterminals_auth on public.dns_empty_nonterminals',
    'drop function public.dns_empty_nonterminals_auth()',
    'drop trigger dns_records_auth on public.dns_records',
    'drop function public.dns_records_auth()',
    'drop function public.dns_refresh_auth(integer)',
    'alter table public.dns_empty_nonterminals drop column auth',
    'alter table public.dns_records drop column auth',
  ];
  for (const statement of reverse) await sql.raw(statement).execute(db);
}
