import { sql, type Kysely } from 'kysely';

/**
 * Passkeys (WebAuthn): a user's discoverable credentials, each with its public key, signature
 * counter and backup state; challenges kept until used once or expired; and on the user whether
 * they have one (a passkey is a second factor for enforced two-factor authentication).
 */
const statements = [
  `create table public.passkeys (
    id serial primary key,
    tenant_id integer not null references public.tenants(id) on delete cascade,
    user_id integer not null references public.users(id) on delete cascade,
    credential_id text not null unique,
    public_key text not null,
    counter bigint not null default 0,
    transports jsonb not null default '[]',
    device_type text not null,
    backed_up boolean not null,
    name text not null,
    created_at timestamptz not null,
    last_used_at timestamptz
  )`,
  'create index passkeys_user on public.passkeys (user_id, id)',
  `create table public.webauthn_challenges (
    id text primary key,
    tenant_id integer not null references public.tenants(id) on delete cascade,
    user_id integer references public.users(id) on delete cascade,
    purpose text not null check (purpose in ('register', 'login')),
    challenge text not null,
    expires_at timestamptz not null
  )`,
  'create index webauthn_challenges_expiry on public.webauthn_challenges (expires_at)',
  'alter table public.users add column passkey_enabled boolean not null default false',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table public.users drop column passkey_enabled').execute(db);
  await sql.raw('drop table public.webauthn_challenges').execute(db);
  await sql.raw('drop table public.passkeys').execute(db);
}
