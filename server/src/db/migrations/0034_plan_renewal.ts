import { sql, type Kysely } from 'kysely';

/**
 * Hosting plans renew like domains (modules/billing): a cart or order line that names a
 * subscription extends it instead of starting a new one, and the 30/7/1-day reminders of a plan
 * that is not renewed automatically are claimed once per end date, like a domain's.
 */
const statements = [
  'alter table public.cart_items add column subscription_id integer references public.hosting_subscriptions(id) on delete cascade',
  'alter table public.order_items add column subscription_id integer references public.hosting_subscriptions(id) on delete set null',
  `create table public.subscription_expiry_reminders (
    subscription_id integer not null references public.hosting_subscriptions(id) on delete cascade,
    days_before smallint not null,
    expires_at timestamptz not null,
    sent_at timestamptz not null,
    primary key (subscription_id, days_before, expires_at)
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table public.subscription_expiry_reminders').execute(db);
  await sql.raw('alter table public.order_items drop column subscription_id').execute(db);
  await sql.raw('alter table public.cart_items drop column subscription_id').execute(db);
}
