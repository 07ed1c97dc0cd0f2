import { sql, type Kysely } from 'kysely';

const statements = [
  `create table user_avatars (
    user_id integer primary key references users(id) on delete cascade,
    image bytea not null,
    updated_at timestamptz not null
  )`,
  `create table tenant_logos (
    tenant_id integer not null references tenants(id) on delete cascade,
    kind text not null check (kind in ('admin_logo', 'admin_logo_footer')),
    image bytea not null,
    content_type text not null,
    updated_at timestamptz not null,
    primary key (tenant_id, kind)
  )`,
  `create index domains_live on domains (tenant_id, expire_at)`,
  `create table cart_items (
    id serial primary key,
    tenant_id integer not null references tenants(id) on delete cascade,
    user_id integer not null references users(id) on delete cascade,
    product_type text not null,
    title text not null,
    domain_name text,
    period_months integer not null default 12,
    price_minor bigint not null,
    currency text not null default 'EUR',
    created_at timestamptz not null default now()
  )`,
  `create index cart_items_user on cart_items (user_id, id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table cart_items, tenant_logos, user_avatars').execute(db);
  await sql.raw('drop index domains_live').execute(db);
}
