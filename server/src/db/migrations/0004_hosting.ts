import { sql, type Kysely } from 'kysely';

/** Sorting by expiry puts "no expiry" last; the same expression is indexed and queried. */
const EXPIRY_SORT_KEY = `coalesce(expire_at, 'infinity'::timestamptz)`;

const statements = [
  // Punycode names are ASCII: the C collation sorts them bytewise and lets one btree serve both
  // ORDER BY name and prefix search (LIKE 'q%'), with no text_pattern_ops twin index.
  `alter table domains alter column name type text collate "C"`,
  `alter table domains
     add column notes text not null default '',
     add column settings jsonb not null default '{}',
     add column updated_at timestamptz not null default now()`,
  // Keyset pagination: (scope, sort key, id) for each scope a viewer has and each sort. They carry
  // the other sort column too (INCLUDE), so a page's walk, prefix filter included, is index-only.
  `drop index domains_owner`,
  `drop index domains_tenant`,
  `create index domains_tenant_name on domains (tenant_id, name, id) include (expire_at)`,
  `create index domains_owner_name on domains (owner_id, name, id) include (expire_at)`,
  `create index domains_name_id on domains (name, id) include (expire_at)`,
  `create index domains_tenant_expiry on domains (tenant_id, (${EXPIRY_SORT_KEY}), id) include (name, expire_at)`,
  `create index domains_owner_expiry on domains (owner_id, (${EXPIRY_SORT_KEY}), id) include (name, expire_at)`,
  `create index domains_expiry on domains ((${EXPIRY_SORT_KEY}), id) include (name, expire_at)`,
  // "Contains" search: a trigram index where PostgreSQL has pg_trgm (PGlite does not load it).
  `do $$ begin
     create extension if not exists pg_trgm;
   exception when others then null;
   end $$`,
  `do $$ begin
     if exists (select 1 from pg_extension where extname = 'pg_trgm') then
       execute 'create index domains_name_trgm on domains using gin (name gin_trgm_ops)';
     end if;
   end $$`,

  `alter table tenants add column name_servers jsonb not null default '[]'`,

  `create table dns_zones (
    domain_id integer primary key references domains(id) on delete cascade,
    tenant_id integer not null references tenants(id) on delete cascade,
    serial bigint not null,
    updated_at timestamptz not null
  )`,
  `create table dns_records (
    id serial primary key,
    tenant_id integer not null references tenants(id) on delete cascade,
    domain_id integer not null references domains(id) on delete cascade,
    name text collate "C" not null,
    type text not null check (type in ('A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV', 'CAA', 'NS')),
    content text not null,
    ttl integer not null check (ttl between 60 and 604800),
    priority integer check (priority between 0 and 65535),
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`,
  // The same record twice is a mistake; TXT can be long, so its hash is what is unique.
  `create unique index dns_records_unique on dns_records (domain_id, name, type, md5(content))`,
  `create index domain_users_domain on domain_users (domain_id, uid, id)`,

  `create table notifications (
    id bigserial primary key,
    tenant_id integer references tenants(id) on delete cascade,
    user_id integer not null references users(id) on delete cascade,
    type text not null check (type in ('error', 'notice', 'warning', 'info')),
    text text not null,
    read_at timestamptz,
    created_at timestamptz not null
  )`,
  `create index notifications_user on notifications (user_id, id)`,
  `create index notifications_unread on notifications (user_id) where read_at is null`,

  // One row per reminder sent; the expiry is part of the key, so a renewed domain is reminded again.
  `create table domain_expiry_reminders (
    domain_id integer not null references domains(id) on delete cascade,
    days_before integer not null,
    expire_at timestamptz not null,
    sent_at timestamptz not null,
    primary key (domain_id, days_before, expire_at)
  )`,

  `alter table audit_log
     add column target_type text,
     add column target_id text,
     add column impersonator_id integer references users(id) on delete set null`,
  `create index audit_log_tenant_id on audit_log (tenant_id, id)`,
  `create index audit_log_target on audit_log (target_type, target_id, id)`,
  `create index audit_log_user on audit_log (user_id, id)`,

  // "Log in as customer": the customer's session remembers which admin opened it.
  `create table session_impersonations (
    session_id_hash text primary key references sessions(id_hash) on delete cascade,
    impersonator_id integer not null references users(id) on delete cascade,
    impersonator_remember boolean not null,
    started_at timestamptz not null
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    'drop table session_impersonations, domain_expiry_reminders, notifications, dns_records, dns_zones',
    'drop index audit_log_tenant_id, audit_log_target, audit_log_user, domain_users_domain',
    'alter table audit_log drop column target_type, drop column target_id, drop column impersonator_id',
    'alter table tenants drop column name_servers',
    'drop index if exists domains_name_trgm',
    'drop index domains_tenant_name, domains_owner_name, domains_name_id, domains_tenant_expiry, domains_owner_expiry, domains_expiry',
    'alter table domains drop column notes, drop column settings, drop column updated_at',
    'alter table domains alter column name type text collate "default"',
    'create index domains_owner on domains (owner_id, name)',
    'create index domains_tenant on domains (tenant_id, name)',
  ]) {
    await sql.raw(statement).execute(db);
  }
}
