import { sql, type Kysely } from 'kysely';

/** The views as 0009 made them (0012 replaces them; its down puts these back). */
export const DOMAINS_VIEW = `create view pdns.domains as
    select d.id, d.name::varchar(255) as name, null::varchar(128) as master, null::int as last_check,
      'NATIVE'::text as type, null::bigint as notified_serial, null::varchar(40) as account,
      null::text as options, null::text as catalog
    from public.domains d join public.dns_zones z on z.domain_id = d.id`;
export const RECORDS_VIEW = `create view pdns.records as
    select -z.domain_id::bigint as id, d.id as domain_id, d.name::varchar(255) as name, 'SOA'::varchar(10) as type,
      concat_ws(' ', coalesce(
          (select n.content from public.dns_records n where n.domain_id = d.id and n.name = '@' and n.type = 'NS' and not n.disabled order by n.id limit 1),
          t.name_servers->>0, 'ns1.' || d.name), 'hostmaster.' || d.name, z.serial,
        10800, 3600, 1209600, 3600)::varchar(65535) as content,
      3600 as ttl, 0 as prio, false as disabled, ''::varchar(255) as ordername, true as auth
    from public.dns_zones z
      join public.domains d on d.id = z.domain_id
      join public.tenants t on t.id = d.tenant_id
    union all
    select r.id::bigint, r.domain_id,
      (case when r.name = '@' then d.name else r.name || '.' || d.name end)::varchar(255),
      r.type::varchar(10),
      (case when r.type = 'TXT' then (
        select string_agg('"' || replace(replace(part.chunk[1], '\\', '\\\\'), '"', '\\"') || '"', ' ' order by part.n)
        from regexp_matches(r.content, case when r.content ~ '^[ -~]*$' then '.{1,255}' else '.{1,63}' end, 'g')
          with ordinality as part(chunk, n)
      ) else r.content end)::varchar(65535),
      r.ttl, coalesce(r.priority, 0), r.disabled,
      (case when r.name = '@' then '' else (
        select string_agg(label, ' ' order by n desc) from unnest(string_to_array(r.name, '.')) with ordinality as l(label, n)
      ) end)::varchar(255),
      not exists (
        select 1 from public.dns_records n
        where n.domain_id = r.domain_id and n.type = 'NS' and n.name <> '@' and not n.disabled
          and (r.name = n.name or right(r.name, length(n.name) + 1) = '.' || n.name)
      )
    from public.dns_records r join public.domains d on d.id = r.domain_id`;

/**
 * PowerDNS reads the zones straight from Berth's tables: the schema `pdns` holds views with the
 * column names of PowerDNS's own gpgsql schema, so its stock queries work unchanged with
 * `search_path=pdns`, and a change is served the moment its transaction commits
 * (docs/decisions/0008-daemons-read-the-database.md). PowerDNS's own state (DNSSEC keys,
 * metadata) lives in real tables beside the views. The daemon's role reads this schema only
 * (`npm run services` and docs/deploy.md grant it).
 */
const statements = [
  // A record can be kept on the page but taken off the air.
  'alter table public.dns_records add column disabled boolean not null default false',
  'create schema pdns',
  // Every domain that has a zone, as a native (not replicated) zone.
  DOMAINS_VIEW,
  // The SOA as the DNS page shows it (modules/dns/zone.ts): the zone's serial, its first apex NS
  // record (else the tenant's first name server) as primary, RIPE-203 timers; then the records of the
  // DNS page: names made absolute, priorities in their own column, TXT text quoted and cut into
  // strings of at most 255 bytes (63 characters when the text is not plain ASCII). For signed
  // zones, what `pdnsutil rectify-zone` would store: the order name (labels below the apex in
  // reverse, space-separated) and auth, false at and below a delegation (an NS record off the apex).
  RECORDS_VIEW,
  `create table pdns.domainmetadata (
    id serial primary key,
    domain_id integer references public.domains(id) on delete cascade,
    kind varchar(32),
    content text
  )`,
  'create index domainmetadata_domain on pdns.domainmetadata (domain_id)',
  `create table pdns.cryptokeys (
    id serial primary key,
    domain_id integer references public.domains(id) on delete cascade,
    flags integer not null,
    active boolean,
    published boolean default true,
    content text
  )`,
  'create index cryptokeys_domain on pdns.cryptokeys (domain_id)',
  `create table pdns.tsigkeys (
    id serial primary key,
    name varchar(255),
    algorithm varchar(50),
    secret varchar(255),
    constraint c_lowercase_name check (name::text = lower(name::text))
  )`,
  'create unique index tsigkeys_name_algorithm on pdns.tsigkeys (name, algorithm)',
  `create table pdns.supermasters (
    ip inet not null,
    nameserver varchar(255) not null,
    account varchar(40) not null,
    primary key (ip, nameserver)
  )`,
  `create table pdns.comments (
    id serial primary key,
    domain_id integer not null references public.domains(id) on delete cascade,
    name varchar(255) not null,
    type varchar(10) not null,
    modified_at integer not null,
    account varchar(40),
    comment varchar(65535) not null
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop schema pdns cascade').execute(db);
  await sql.raw('alter table public.dns_records drop column disabled').execute(db);
}
