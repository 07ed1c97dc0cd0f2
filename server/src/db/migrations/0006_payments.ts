import { sql, type Kysely } from 'kysely';

const statements = [
  // Where a tenant's customers transfer money to; bank transfer is offered only when a row exists.
  `create table tenant_bank_accounts (
    tenant_id integer primary key references tenants(id) on delete cascade,
    account_name text not null,
    iban text not null,
    bic text,
    updated_at timestamptz not null
  )`,

  // A user's saved ways to pay. A card is only its Stripe id and what identifies it to its owner.
  `create table payment_methods (
    id serial primary key,
    tenant_id integer not null references tenants(id) on delete cascade,
    user_id integer not null references users(id) on delete cascade,
    kind text not null check (kind in ('bank_transfer', 'card')),
    is_default boolean not null default false,
    account_name text,
    iban text,
    bic text,
    stripe_payment_method_id text,
    card_brand text,
    card_last4 text,
    card_exp_month integer,
    card_exp_year integer,
    created_at timestamptz not null,
    check (kind <> 'bank_transfer' or (account_name is not null and iban is not null)),
    check (kind <> 'card' or (stripe_payment_method_id is not null and card_brand is not null and card_last4 is not null
      and card_exp_month between 1 and 12 and card_exp_year is not null))
  )`,
  `create index payment_methods_user on payment_methods (user_id, id)`,
  // Exactly one default per user is kept by the service in one transaction; this makes two impossible.
  `create unique index payment_methods_one_default on payment_methods (user_id) where is_default`,
  `create unique index payment_methods_iban on payment_methods (user_id, iban) where iban is not null`,
  `create unique index payment_methods_stripe on payment_methods (user_id, stripe_payment_method_id) where stripe_payment_method_id is not null`,

  // Stripe delivers an event at least once: its id is recorded once it has been handled.
  `create table stripe_events (
    id text primary key,
    type text not null,
    tenant_id integer references tenants(id) on delete set null,
    invoice_id integer references invoices(id) on delete set null,
    outcome text not null,
    received_at timestamptz not null
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table stripe_events, payment_methods, tenant_bank_accounts').execute(db);
}
