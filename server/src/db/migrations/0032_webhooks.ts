import { sql, type Kysely } from 'kysely';

/**
 * Signed outgoing webhooks (Standard Webhooks), per tenant: the endpoints a reseller registers, and
 * one row per delivery attempt (the endpoint's delivery log: status, time, response code, the first
 * 1 KB of the answer). The attempts are jobs of the durable queue (modules/webhooks/service.ts); the
 * secret is sealed like TOTP seeds, and after a rotation the previous one still signs until
 * `previous_secret_until`.
 */
const statements = [
  `create table webhook_endpoints (
    id serial primary key,
    tenant_id integer not null references tenants(id) on delete cascade,
    url text not null,
    description text not null default '',
    events text[] not null,
    enabled boolean not null default true,
    secret_sealed text not null,
    previous_secret_sealed text,
    previous_secret_until timestamptz,
    created_at timestamptz not null,
    updated_at timestamptz not null
  )`,
  'create index webhook_endpoints_tenant on webhook_endpoints (tenant_id)',
  `create table webhook_deliveries (
    id bigserial primary key,
    endpoint_id integer not null references webhook_endpoints(id) on delete cascade,
    event_id text not null,
    event_type text not null,
    payload jsonb not null,
    attempt integer not null,
    status text not null check (status in ('delivered', 'failed')),
    response_code integer,
    response_excerpt text,
    error text,
    created_at timestamptz not null
  )`,
  'create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, id desc)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table webhook_deliveries, webhook_endpoints').execute(db);
}
