import { sql, type Kysely } from 'kysely';
import { CHALLENGE_AUTH, ORDERNAME, RECORDS_VIEW_0035 } from './0035_certificates.ts';

/**
 * pdns.records becomes a table that triggers keep, instead of a view PowerDNS's lookups expand at
 * every question. The view was a union of four branches (SOAs, records, empty non-terminals, ACME
 * answers): each lookup started and locked four scans, an ACME join and its sub-plan, and
 * PowerDNS on the views answered 0.74-0.87 of what it answers from its own tables
 * (bench/src/dns-throughput.ts), with its caches off. The table has PowerDNS's own indexes, so a
 * lookup reads one index, as on its own schema.
 *
 * A row is written again from its source whenever the source changes, in the same transaction, so
 * a change is served the moment it commits, as before. Each trigger reads the source row as it is
 * now rather than the trigger's NEW: the delegation and proof triggers update rows from inside
 * other triggers, and a row's last state is the one to serve. SERVED_ROWS is the view's own query;
 * server/src/modules/dns/served-rows.api.test.ts checks that the table always equals it.
 */
export const SERVED_ROWS = RECORDS_VIEW_0035.replace(/^create or replace view pdns\.records as/, '');

/** Each source but dns_records (whose function also follows delegations): what serves it, by which key. */
const ROW_SOURCES = [
  ['dns_empty_nonterminals', 'pdns_serve_empty_nonterminal', 'id'],
  ['dns_zones', 'pdns_serve_zone', 'domain_id'],
  ['acme_dns_challenges', 'pdns_serve_challenge', 'id'],
] as const;
const SOURCES = ['dns_records', ...ROW_SOURCES.map(([table]) => table)];
const servedOnChange = (table: string) =>
  `create trigger ${table}_pdns after insert or update or delete on public.${table} for each row execute function public.${table}_pdns()`;

// Row ids as the view had them: a zone's SOA is -zone, an empty non-terminal -(1e10 + id), an ACME
// answer -(2e10 + id); a record keeps its own id.
const statements = [
  'alter view pdns.records rename to records_0035',
  `create table pdns.records (
    id bigint primary key,
    domain_id integer not null,
    name text collate "C" not null,
    type text,
    content text,
    ttl integer,
    prio integer,
    disabled boolean not null,
    ordername text collate "C",
    auth boolean not null
  )`,
  // Debian's schema.pgsql.sql: a name and type, and a zone in DNSSEC order.
  'create index records_name_type on pdns.records (name, type)',
  'create index records_order on pdns.records (domain_id, ordername text_pattern_ops)',
  'insert into pdns.records select * from pdns.records_0035',
  'drop view pdns.records_0035',
  `create function public.pdns_serve_record(row_id integer) returns void language sql as $$
    delete from pdns.records where id = row_id;
    insert into pdns.records
      select r.id, r.domain_id, r.fqdn, r.type, r.served_content, r.ttl, coalesce(r.priority, 0), r.disabled, r.ordername, r.auth
      from public.dns_records r where r.id = row_id and r.served;
  $$`,
  `create function public.pdns_serve_empty_nonterminal(row_id bigint) returns void language sql as $$
    delete from pdns.records where id = -(10000000000 + row_id);
    insert into pdns.records
      select -(10000000000 + e.id), e.domain_id, e.fqdn, null, null, null, null, false, e.ordername, e.auth
      from public.dns_empty_nonterminals e where e.id = row_id and e.served;
  $$`,
  `create function public.pdns_serve_challenge(row_id integer) returns void language sql as $$
    delete from pdns.records where id = -(20000000000 + row_id::bigint);
    insert into pdns.records
      select -(20000000000 + c.id::bigint), c.domain_id, c.name || '.' || z.name, 'TXT', '"' || c.token || '"', 60, 0, false,
        ${ORDERNAME('c.name')},
        ${CHALLENGE_AUTH}
      from public.acme_dns_challenges c join public.dns_zones z on z.domain_id = c.domain_id
      where c.id = row_id and z.served;
  $$`,
  // A zone's answers, each on its own (two authorizations of one zone publish theirs at once): a
  // challenge being removed meanwhile waits for this transaction and then removes what it wrote.
  `create function public.pdns_serve_challenges(zone integer) returns void language plpgsql as $$
    declare
      challenge integer;
    begin
      for challenge in select id from public.acme_dns_challenges where domain_id = zone order by id for share loop
        perform public.pdns_serve_challenge(challenge);
      end loop;
    end $$`,
  `create function public.pdns_serve_zone(zone integer) returns void language sql as $$
    delete from pdns.records where id = -zone::bigint;
    insert into pdns.records
      select -z.domain_id::bigint, z.domain_id, z.name, 'SOA', z.soa_content, 3600, 0, false, '', true
      from public.dns_zones z where z.domain_id = zone and z.served;
    select public.pdns_serve_challenges(zone);
  $$`,
  `create function public.dns_records_pdns() returns trigger language plpgsql as $$
    begin
      perform public.pdns_serve_record(case when tg_op = 'DELETE' then old.id else new.id end);
      -- A delegation that changes moves the auth flag of the zone's ACME answers too.
      if tg_op <> 'INSERT' and old.type = 'NS' and old.name <> '@' then
        perform public.pdns_serve_challenges(old.domain_id);
      end if;
      if tg_op <> 'DELETE' and new.type = 'NS' and new.name <> '@' then
        perform public.pdns_serve_challenges(new.domain_id);
      end if;
      return null;
    end $$`,
  servedOnChange('dns_records'),
  ...ROW_SOURCES.flatMap(([table, serve, key]) => [
    `create function public.${table}_pdns() returns trigger language plpgsql as $$
      begin
        perform public.${serve}(case when tg_op = 'DELETE' then old.${key} else new.${key} end);
        return null;
      end $$`,
    servedOnChange(table),
  ]),
];

/** Who may read pdns.records (PowerDNS's role): the table is readable by whoever could read the view. */
async function readers(db: Kysely<unknown>): Promise<string[]> {
  const { rows } = await sql<{ grantee: string }>`
    select distinct r.rolname as grantee
    from pg_class c cross join lateral aclexplode(c.relacl) a join pg_roles r on r.oid = a.grantee
    where c.oid = 'pdns.records'::regclass and a.privilege_type = 'SELECT' and a.grantee <> c.relowner`.execute(db);
  return rows.map((row) => row.grantee);
}

const grantTo = async (db: Kysely<unknown>, roles: string[]) => {
  for (const role of roles) await sql`grant select on pdns.records to ${sql.id(role)}`.execute(db);
};

export async function up(db: Kysely<unknown>): Promise<void> {
  const roles = await readers(db);
  for (const statement of statements) await sql.raw(statement).execute(db);
  await grantTo(db, roles);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const roles = await readers(db);
  for (const table of SOURCES) {
    await sql.raw(`drop trigger ${table}_pdns on public.${table}`).execute(db);
    await sql.raw(`drop function public.${table}_pdns()`).execute(db);
  }
  await sql.raw('drop function public.pdns_serve_zone(integer)').execute(db);
  await sql.raw('drop function public.pdns_serve_challenges(integer)').execute(db);
  await sql.raw('drop function public.pdns_serve_challenge(integer)').execute(db);
  await sql.raw('drop function public.pdns_serve_empty_nonterminal(bigint)').execute(db);
  await sql.raw('drop function public.pdns_serve_record(integer)').execute(db);
  await sql.raw('drop table pdns.records').execute(db);
  await sql.raw(RECORDS_VIEW_0035).execute(db);
  await grantTo(db, roles);
}
