import { sql, type Kysely } from 'kysely';

/**
 * E-invoices and renewals charged to a saved card (modules/payments):
 * - the seller's legal details per tenant (name, address, VAT ID), which an EN 16931 invoice
 *   must carry, copied onto each invoice when it is issued like the buyer's;
 * - the Stripe Customer each user's cards are attached to (a card can be charged later, with the
 *   customer away, only through a Customer), and the customer a saved card belongs to;
 * - one row per attempt to charge a saved card for an unpaid invoice, claimed once per step;
 * - the private ranges the super admin lets webhooks reach (modules/webhooks/address-guard.ts).
 */
const statements = [
  `create table public.tenant_seller_details (
    tenant_id integer primary key references public.tenants(id) on delete cascade,
    legal_name text not null,
    street text not null,
    city text not null,
    postal_code text not null,
    country text not null check (country ~ '^[A-Z]{2}$'),
    vat_id text not null default '',
    email text not null default '',
    phone text not null default '',
    updated_at timestamptz not null
  )`,
  'alter table public.invoices add column seller_details jsonb',
  `create table public.stripe_customers (
    user_id integer primary key references public.users(id) on delete cascade,
    customer_id text not null unique
  )`,
  'alter table public.payment_methods add column stripe_customer_id text',
  `create table public.card_charges (
    id serial primary key,
    invoice_id integer not null references public.invoices(id) on delete cascade,
    step smallint not null,
    payment_method_id integer references public.payment_methods(id) on delete set null,
    status text not null check (status in ('pending', 'succeeded', 'failed')),
    reference text,
    problem text,
    created_at timestamptz not null,
    -- When the owner was told the outcome (modules/billing): once per attempt.
    told_at timestamptz,
    unique (invoice_id, step)
  )`,
  `create table public.webhook_allowed_ranges (
    range text primary key,
    created_at timestamptz not null
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table public.webhook_allowed_ranges').execute(db);
  await sql.raw('drop table public.card_charges').execute(db);
  await sql.raw('alter table public.payment_methods drop column stripe_customer_id').execute(db);
  await sql.raw('drop table public.stripe_customers').execute(db);
  await sql.raw('alter table public.invoices drop column seller_details').execute(db);
  await sql.raw('drop table public.tenant_seller_details').execute(db);
}
