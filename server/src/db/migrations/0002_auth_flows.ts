import { sql, type Kysely } from 'kysely';

const statements = [
  `alter table users
     add column google2fa_secret text,
     add column google2fa_pending_secret text,
     add column google2fa_last_step bigint not null default 0`,
  `alter table sessions
     add column public_id text not null default md5(random()::text || clock_timestamp()::text),
     add column two_factor_started_at timestamptz`,
  `create unique index sessions_public_id on sessions (public_id)`,
  `create table recovery_codes (
    id serial primary key,
    user_id integer not null references users(id) on delete cascade,
    code_hash text not null,
    used_at timestamptz
  )`,
  `create unique index recovery_codes_user_hash on recovery_codes (user_id, code_hash)`,
  `create table password_resets (
    uniq_id text primary key,
    user_id integer not null references users(id) on delete cascade,
    token_hash text not null,
    created_at timestamptz not null,
    expires_at timestamptz not null,
    used_at timestamptz
  )`,
  `create index password_resets_user on password_resets (user_id)`,
  `create table otp_logins (
    uniq_id text primary key,
    tenant_id integer not null references tenants(id) on delete cascade,
    user_id integer references users(id) on delete cascade,
    code_hash text,
    attempts integer not null default 0,
    created_at timestamptz not null,
    expires_at timestamptz not null,
    used_at timestamptz
  )`,
  `create table email_verifications (
    code_hash text primary key,
    user_id integer not null references users(id) on delete cascade,
    created_at timestamptz not null,
    expires_at timestamptz not null,
    used_at timestamptz
  )`,
  `create table throttle_hits (
    key text not null,
    hit_at timestamptz not null
  )`,
  `create index throttle_hits_key_at on throttle_hits (key, hit_at)`,
  `create table outbox (
    id serial primary key,
    tenant_id integer references tenants(id) on delete cascade,
    recipient text not null,
    subject text not null,
    text_body text not null,
    html_body text not null,
    created_at timestamptz not null
  )`,
  `create index outbox_created on outbox (created_at desc)`,
  `create table domain_users (
    id serial primary key,
    tenant_id integer not null references tenants(id) on delete cascade,
    domain_id integer not null references domains(id) on delete cascade,
    uid text not null,
    password_hash text not null,
    quota_mb integer not null default 1024,
    enabled boolean not null default true,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index domain_users_uid on domain_users (lower(uid))`,
  `create table captcha_uses (
    signature text primary key,
    expires_at timestamptz not null
  )`,
  `create table app_secrets (
    name text primary key,
    value text not null
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      'drop table app_secrets, captcha_uses, domain_users, outbox, throttle_hits, email_verifications, otp_logins, password_resets, recovery_codes',
    )
    .execute(db);
  await sql.raw('alter table sessions drop column public_id, drop column two_factor_started_at').execute(db);
  await sql
    .raw('alter table users drop column google2fa_secret, drop column google2fa_pending_secret, drop column google2fa_last_step')
    .execute(db);
}
