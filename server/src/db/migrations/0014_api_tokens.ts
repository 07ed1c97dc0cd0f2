import { sql, type Kysely } from 'kysely';

/**
 * Personal API tokens: `Authorization: Bearer berth_…` on the /api routes their scopes name
 * (modules/api-tokens/scopes.ts). Only the SHA-256 of a token is stored; it is shown once.
 */
const statements = [
  `create table public.api_tokens (
    id serial primary key,
    tenant_id integer not null references public.tenants(id) on delete cascade,
    user_id integer not null references public.users(id) on delete cascade,
    name text not null,
    token_hash text not null unique,
    -- The first characters, to tell tokens apart in lists and logs.
    prefix text not null,
    scopes jsonb not null,
    -- CIDR blocks the token may be used from; empty = anywhere.
    allowed_ips jsonb not null default '[]',
    expires_at timestamptz,
    last_used_at timestamptz,
    last_used_ip text,
    created_at timestamptz not null,
    revoked_at timestamptz
  )`,
  'create index api_tokens_user on public.api_tokens (user_id, id)',
  'create index api_tokens_tenant on public.api_tokens (tenant_id, id)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table public.api_tokens').execute(db);
}
