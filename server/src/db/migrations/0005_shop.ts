import { sql, type Kysely } from 'kysely';

/*
 * The shop: catalogue per tenant, the server-side cart (extends 0003's cart_items), orders,
 * invoices numbered per tenant without gaps, the payments that settle them, the insert-only credit
 * ledger with one lockable account row per user, hosting subscriptions and promo codes.
 * Money is bigint minor units; rates are basis points (2100 = 21 %).
 */
const statements = [
  `create table shop_settings (
    tenant_id integer primary key references tenants(id) on delete cascade,
    currency text not null default 'EUR',
    vat_rate_bp integer not null default 2100 check (vat_rate_bp between 0 and 10000),
    commission_rate_bp integer not null default 1000 check (commission_rate_bp between 0 and 10000),
    top_up_min bigint not null default 1000 check (top_up_min >= 0),
    top_up_max bigint not null default 1000000 check (top_up_max >= top_up_min),
    updated_at timestamptz not null default now()
  )`,
  `create table hosting_plans (
    id serial primary key,
    tenant_id integer not null references tenants(id) on delete cascade,
    title text not null,
    description text not null default '',
    monthly_price bigint not null check (monthly_price >= 0),
    yearly_price bigint not null check (yearly_price >= 0),
    active boolean not null default true,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create index hosting_plans_tenant on hosting_plans (tenant_id, id)`,
  `create table tld_prices (
    id serial primary key,
    tenant_id integer not null references tenants(id) on delete cascade,
    tld text collate "C" not null,
    register_price bigint not null check (register_price >= 0),
    renew_price bigint not null check (renew_price >= 0),
    transfer_price bigint not null check (transfer_price >= 0),
    active boolean not null default true,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    constraint tld_prices_tenant_tld unique (tenant_id, tld)
  )`,

  `create table promo_codes (
    id serial primary key,
    tenant_id integer not null references tenants(id) on delete cascade,
    code text not null,
    kind text not null check (kind in ('percent', 'fixed')),
    value bigint not null check (value > 0),
    valid_from timestamptz,
    valid_until timestamptz,
    max_uses integer check (max_uses > 0),
    uses integer not null default 0 check (uses >= 0 and (max_uses is null or uses <= max_uses)),
    once_per_customer boolean not null default false,
    kinds jsonb not null default '[]',
    plan_ids jsonb not null default '[]',
    tlds jsonb not null default '[]',
    active boolean not null default true,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index promo_codes_tenant_code on promo_codes (tenant_id, upper(code))`,

  // The cart of 0003: rows now point at what they buy; prices are read from the catalogue.
  `alter table cart_items
     add column plan_id integer references hosting_plans(id) on delete cascade,
     add column domain_id integer references domains(id) on delete cascade,
     add column tld text`,
  `create unique index cart_items_user_domain on cart_items (user_id, domain_name) where domain_name is not null`,
  `create table cart_promos (
    user_id integer primary key references users(id) on delete cascade,
    promo_id integer not null references promo_codes(id) on delete cascade,
    applied_at timestamptz not null
  )`,

  `create table orders (
    id serial primary key,
    tenant_id integer not null references tenants(id) on delete cascade,
    user_id integer not null references users(id) on delete cascade,
    status text not null check (status in ('pending', 'paid', 'cancelled')),
    currency text not null,
    vat_rate_bp integer not null,
    subtotal bigint not null,
    discount bigint not null,
    net bigint not null,
    vat bigint not null,
    gross bigint not null,
    promo_id integer references promo_codes(id) on delete set null,
    promo_code text,
    idempotency_key text not null,
    created_at timestamptz not null,
    paid_at timestamptz,
    constraint orders_user_idempotency unique (user_id, idempotency_key)
  )`,
  `create index orders_tenant on orders (tenant_id, id)`,
  `create table order_items (
    id serial primary key,
    order_id integer not null references orders(id) on delete cascade,
    kind text not null check (kind in ('hosting', 'domain_register', 'domain_renew', 'domain_transfer')),
    title text not null,
    plan_id integer references hosting_plans(id) on delete set null,
    domain_name text,
    domain_id integer references domains(id) on delete set null,
    period_months integer not null,
    net bigint not null,
    discount bigint not null,
    provisioned_at timestamptz
  )`,
  `create index order_items_order on order_items (order_id, id)`,
  `create table promo_redemptions (
    id serial primary key,
    promo_id integer not null references promo_codes(id) on delete cascade,
    user_id integer not null references users(id) on delete cascade,
    order_id integer not null references orders(id) on delete cascade,
    -- the user when the code is once per customer, else null (nulls never collide)
    once_key integer,
    created_at timestamptz not null,
    constraint promo_redemptions_once unique (promo_id, once_key)
  )`,

  `create table invoice_counters (
    tenant_id integer not null references tenants(id) on delete cascade,
    year integer not null,
    last_number integer not null,
    primary key (tenant_id, year)
  )`,
  `create table invoices (
    id serial primary key,
    tenant_id integer not null references tenants(id) on delete cascade,
    user_id integer not null references users(id) on delete cascade,
    number text not null,
    kind text not null check (kind in ('order', 'credit')),
    order_id integer references orders(id) on delete cascade,
    status text not null check (status in ('unpaid', 'paid', 'cancelled')),
    currency text not null,
    vat_rate_bp integer not null,
    subtotal bigint not null,
    discount bigint not null,
    net bigint not null,
    vat bigint not null,
    gross bigint not null,
    promo_code text,
    payment_provider text not null,
    payment_reference text not null,
    instructions jsonb,
    issued_at timestamptz not null,
    paid_at timestamptz,
    constraint invoices_tenant_number unique (tenant_id, number),
    constraint invoices_tenant_reference unique (tenant_id, payment_reference)
  )`,
  `create index invoices_user on invoices (user_id, id)`,
  `create index invoices_tenant on invoices (tenant_id, id)`,
  `create table invoice_lines (
    id serial primary key,
    invoice_id integer not null references invoices(id) on delete cascade,
    kind text not null,
    title text not null,
    period_months integer,
    net bigint not null,
    discount bigint not null
  )`,
  `create index invoice_lines_invoice on invoice_lines (invoice_id, id)`,
  `create table payments (
    id serial primary key,
    tenant_id integer not null references tenants(id) on delete cascade,
    invoice_id integer not null references invoices(id) on delete cascade,
    provider text not null,
    reference text not null,
    amount bigint not null,
    actor_id integer references users(id) on delete set null,
    created_at timestamptz not null,
    constraint payments_provider_reference unique (tenant_id, provider, reference)
  )`,
  `create index payments_invoice on payments (invoice_id)`,

  // balance is the ledger's sum, kept on the row every debit locks, so GET /api/user reads one row.
  `create table credit_accounts (
    user_id integer primary key references users(id) on delete cascade,
    tenant_id integer not null references tenants(id) on delete cascade,
    balance bigint not null default 0,
    currency text not null,
    updated_at timestamptz not null
  )`,
  `create table credit_ledger (
    id bigserial primary key,
    tenant_id integer not null references tenants(id) on delete cascade,
    user_id integer not null references users(id) on delete cascade,
    amount bigint not null check (amount <> 0),
    currency text not null,
    type text not null check (type in ('top_up', 'purchase', 'commission', 'manual', 'refund')),
    description text not null,
    reference text not null,
    invoice_id integer references invoices(id) on delete set null,
    actor_id integer references users(id) on delete set null,
    created_at timestamptz not null,
    constraint credit_ledger_reference unique (reference)
  )`,
  `create index credit_ledger_user on credit_ledger (user_id, created_at desc, id desc)`,
  // Insert-only: corrections are new entries, never edits. The one change allowed is the foreign
  // keys' own ON DELETE SET NULL (the invoice or the acting admin deleted), so users stay deletable.
  `create function credit_ledger_insert_only() returns trigger language plpgsql as $$
   begin
     if row(new.id, new.tenant_id, new.user_id, new.amount, new.currency, new.type, new.description, new.reference, new.created_at)
          is distinct from row(old.id, old.tenant_id, old.user_id, old.amount, old.currency, old.type, old.description, old.reference, old.created_at)
        or (new.invoice_id is not null and new.invoice_id is distinct from old.invoice_id)
        or (new.actor_id is not null and new.actor_id is distinct from old.actor_id) then
       raise exception 'credit_ledger is insert-only';
     end if;
     return new;
   end $$`,
  `create trigger credit_ledger_no_update before update on credit_ledger
     for each row execute function credit_ledger_insert_only()`,

  `create table hosting_subscriptions (
    id serial primary key,
    tenant_id integer not null references tenants(id) on delete cascade,
    user_id integer not null references users(id) on delete cascade,
    plan_id integer references hosting_plans(id) on delete set null,
    title text not null,
    order_item_id integer references order_items(id) on delete set null,
    starts_at timestamptz not null,
    expires_at timestamptz not null
  )`,
  `create index hosting_subscriptions_user on hosting_subscriptions (user_id, id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `drop table hosting_subscriptions, credit_ledger, credit_accounts, payments, invoice_lines, invoices, invoice_counters,
       promo_redemptions, order_items, orders, cart_promos, promo_codes, tld_prices, hosting_plans, shop_settings`,
    )
    .execute(db);
  await sql.raw('drop function credit_ledger_insert_only()').execute(db);
  await sql.raw('drop index cart_items_user_domain').execute(db);
  await sql.raw('alter table cart_items drop column plan_id, drop column domain_id, drop column tld').execute(db);
}
