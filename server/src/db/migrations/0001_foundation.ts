import { sql, type Kysely } from 'kysely';

const statements = [
  `create table tenants (
    id serial primary key,
    title text not null,
    admin_logo text,
    admin_logo_footer text,
    host_purchases text,
    default_language text not null default 'en',
    public_url text,
    created_at timestamptz not null default now()
  )`,
  `create table tenant_hosts (
    host text primary key,
    tenant_id integer not null references tenants(id) on delete cascade
  )`,
  `create table users (
    id serial primary key,
    tenant_id integer not null references tenants(id) on delete restrict,
    email text not null,
    password_hash text not null,
    role text not null check (role in ('super_admin', 'host_admin', 'customer')),
    given_name text not null default '',
    sn text not null default '',
    phones jsonb not null default '[]',
    language text not null default 'en',
    google2fa_enabled boolean not null default false,
    notifications_viewed jsonb not null default '[]',
    email_verified_at timestamptz,
    locked_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index users_tenant_email on users (tenant_id, lower(email))`,
  `create index users_email on users (lower(email))`,
  `create table sessions (
    id_hash text primary key,
    user_id integer not null references users(id) on delete cascade,
    tenant_id integer not null references tenants(id) on delete cascade,
    remember boolean not null,
    two_factor_pending boolean not null default false,
    ip text,
    user_agent text,
    created_at timestamptz not null,
    last_seen_at timestamptz not null,
    expires_at timestamptz not null
  )`,
  `create index sessions_user on sessions (user_id)`,
  `create index sessions_expires on sessions (expires_at)`,
  `create table audit_log (
    id bigserial primary key,
    tenant_id integer references tenants(id) on delete set null,
    user_id integer references users(id) on delete set null,
    action text not null,
    ip text,
    data jsonb not null default '{}',
    created_at timestamptz not null
  )`,
  `create index audit_log_tenant_created on audit_log (tenant_id, created_at desc)`,
  `create table domains (
    id serial primary key,
    tenant_id integer not null references tenants(id) on delete cascade,
    owner_id integer not null references users(id) on delete cascade,
    name text not null,
    expire_at timestamptz,
    created_at timestamptz not null default now()
  )`,
  `create unique index domains_name on domains (lower(name))`,
  `create index domains_owner on domains (owner_id, name)`,
  `create index domains_tenant on domains (tenant_id, name)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  // One statement per call: PGlite's extended protocol takes a single statement at a time.
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table domains, audit_log, sessions, users, tenant_hosts, tenants`.execute(db);
}
