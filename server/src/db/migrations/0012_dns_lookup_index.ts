import { sql, type Kysely } from 'kysely';
import { DOMAINS_VIEW, RECORDS_VIEW } from './0009_dns_serving.ts';

/** The views as this migration makes them (0019 replaces them; its down puts these back). */
export const DOMAINS_VIEW_0012 = `create view pdns.domains as
    select z.domain_id as id, z.name, null::varchar(128) as master, null::int as last_check,
      'NATIVE'::text as type, null::bigint as notified_serial, null::varchar(40) as account,
      null::text as options, null::text as catalog
    from public.dns_zones z`;
export const RECORDS_VIEW_0012 = `create view pdns.records as
    select -z.domain_id::bigint as id, z.domain_id, z.name, 'SOA'::text as type, z.soa_content as content,
      3600 as ttl, 0 as prio, false as disabled, ''::text as ordername, true as auth
    from public.dns_zones z
    union all
    select r.id::bigint, r.domain_id, r.fqdn, r.type, r.served_content, r.ttl, coalesce(r.priority, 0), r.disabled, r.ordername,
      not exists (
        select 1 from public.dns_records n
        where n.domain_id = r.domain_id and n.type = 'NS' and n.name <> '@' and not n.disabled
          and (r.name = n.name or right(r.name, length(n.name) + 1) = '.' || n.name)
      )
    from public.dns_records r`;

/**
 * PowerDNS asks by absolute name (`www.example.com`), and with its caches off (0009: a change is
 * served at once) it asks for every question, several times. Computing that name in the view
 * (record name + domain name) cannot use an index, so each lookup scanned every record of every
 * zone; quoting TXT text into 255-byte strings and the DNSSEC order name were computed on every
 * read too. Each record now keeps what PowerDNS reads, written by a trigger when the record is:
 * its absolute name `fqdn` (names of domains never change), `served_content` and `ordername`;
 * each zone keeps its name and SOA text.
 * The views hand the columns out uncast, so that the name lookups of PowerDNS's stock queries reach
 * the indexes (bench/src/dns-throughput.ts measures it against PowerDNS's own tables).
 */
const statements = [
  // Collated as record and domain names are ("C"): a lookup through the view must match the index.
  'alter table public.dns_records add column fqdn text collate "C"',
  'alter table public.dns_records add column served_content text',
  'alter table public.dns_records add column ordername text collate "C"',
  // What 0009's view computed on every read: the absolute name; TXT text quoted and cut into
  // strings of at most 255 bytes (63 characters when the text is not plain ASCII); the order name
  // of `pdnsutil rectify-zone` (labels below the apex in reverse, space-separated).
  `create function public.dns_records_served() returns trigger language plpgsql as $$
    begin
      new.fqdn := (select case when new.name = '@' then d.name else new.name || '.' || d.name end
        from public.domains d where d.id = new.domain_id);
      new.served_content := case when new.type = 'TXT' then (
          select string_agg('"' || replace(replace(part.chunk[1], '\\', '\\\\'), '"', '\\"') || '"', ' ' order by part.n)
          from regexp_matches(new.content, case when new.content ~ '^[ -~]*$' then '.{1,255}' else '.{1,63}' end, 'g')
            with ordinality as part(chunk, n)
        ) else new.content end;
      new.ordername := case when new.name = '@' then '' else (
          select string_agg(label, ' ' order by n desc) from unnest(string_to_array(new.name, '.')) with ordinality as l(label, n)
        ) end;
      return new;
    end $$`,
  `create trigger dns_records_served before insert or update of name, domain_id, type, content on public.dns_records
    for each row execute function public.dns_records_served()`,
  'update public.dns_records set name = name',
  'alter table public.dns_records alter column fqdn set not null',
  'alter table public.dns_records alter column served_content set not null',
  'alter table public.dns_records alter column ordername set not null',
  'create index dns_records_fqdn on public.dns_records (fqdn)',
  // The zone's name and SOA text kept with its serial: the SOA is asked first for every question.
  // Its primary is the zone's first apex NS record, else the tenant's first name server (as
  // modules/dns/zone.ts shows it); the triggers below recompute it when either changes.
  'alter table public.dns_zones add column name text collate "C"',
  'alter table public.dns_zones add column soa_content text',
  `create function public.dns_zones_soa() returns trigger language plpgsql as $$
    begin
      new.name := (select d.name from public.domains d where d.id = new.domain_id);
      new.soa_content := concat_ws(' ', coalesce(
          (select n.content from public.dns_records n
            where n.domain_id = new.domain_id and n.name = '@' and n.type = 'NS' and not n.disabled order by n.id limit 1),
          (select t.name_servers->>0 from public.tenants t where t.id = new.tenant_id),
          'ns1.' || new.name),
        'hostmaster.' || new.name, new.serial, 10800, 3600, 1209600, 3600);
      return new;
    end $$`,
  `create trigger dns_zones_soa before insert or update on public.dns_zones
    for each row execute function public.dns_zones_soa()`,
  `create function public.dns_records_apex_ns_changed() returns trigger language plpgsql as $$
    begin
      if (tg_op <> 'DELETE' and new.type = 'NS' and new.name = '@') or (tg_op <> 'INSERT' and old.type = 'NS' and old.name = '@') then
        update public.dns_zones set soa_content = null where domain_id = (case when tg_op = 'DELETE' then old.domain_id else new.domain_id end);
      end if;
      return null;
    end $$`,
  `create trigger dns_records_apex_ns_changed after insert or update or delete on public.dns_records
    for each row execute function public.dns_records_apex_ns_changed()`,
  `create function public.tenants_name_servers_changed() returns trigger language plpgsql as $$
    begin
      update public.dns_zones set soa_content = null where tenant_id = new.id;
      return null;
    end $$`,
  `create trigger tenants_name_servers_changed after update of name_servers on public.tenants
    for each row execute function public.tenants_name_servers_changed()`,
  'update public.dns_zones set serial = serial',
  'alter table public.dns_zones alter column name set not null',
  'alter table public.dns_zones alter column soa_content set not null',
  'create index dns_zones_name on public.dns_zones (name)',
  'drop view pdns.records',
  'drop view pdns.domains',
  DOMAINS_VIEW_0012,
  // As in 0009, the stored columns in place of the computed ones. Only `auth` still looks at other
  // records (false at and below a delegation), through the index of the zone's records.
  RECORDS_VIEW_0012,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop view pdns.records').execute(db);
  await sql.raw('drop view pdns.domains').execute(db);
  await sql.raw(DOMAINS_VIEW).execute(db);
  await sql.raw(RECORDS_VIEW).execute(db);
  for (const [trigger, table] of [
    ['dns_records_served', 'dns_records'],
    ['dns_records_apex_ns_changed', 'dns_records'],
    ['dns_zones_soa', 'dns_zones'],
    ['tenants_name_servers_changed', 'tenants'],
  ]) {
    await sql.raw(`drop trigger ${trigger} on public.${table}`).execute(db);
    await sql.raw(`drop function public.${trigger}()`).execute(db);
  }
  await sql.raw('alter table public.dns_zones drop column name').execute(db);
  await sql.raw('alter table public.dns_zones drop column soa_content').execute(db);
  for (const column of ['fqdn', 'served_content', 'ordername']) {
    await sql.raw(`alter table public.dns_records drop column ${column}`).execute(db);
  }
}
