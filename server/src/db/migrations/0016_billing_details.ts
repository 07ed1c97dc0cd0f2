import { sql, type Kysely } from 'kysely';

/**
 * Billing details a customer keeps on their profile (company, VAT ID, postal address), and on each
 * invoice the buyer's details as they were when it was issued: an issued invoice never changes when
 * the profile does.
 */
const statements = [
  `alter table public.users
    add column company text not null default '',
    add column vat_id text not null default '',
    add column street text not null default '',
    add column city text not null default '',
    add column postal_code text not null default '',
    add column country text not null default ''`,
  'alter table public.invoices add column buyer_details jsonb',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table public.invoices drop column buyer_details').execute(db);
  for (const column of ['company', 'vat_id', 'street', 'city', 'postal_code', 'country'])
    await sql.raw(`alter table public.users drop column ${column}`).execute(db);
}
