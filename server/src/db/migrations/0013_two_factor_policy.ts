import { sql, type Kysely } from 'kysely';

/**
 * A provider may require a second factor: a tenant of its customers (`require_2fa_customers`, set
 * by its host admins) and the operator of every admin (`require_2fa_admins`, read on the operator
 * tenant only, set by super admins). Users without one can only set it up (http/context.ts).
 */
const statements = [
  'alter table public.tenants add column require_2fa_customers boolean not null default false',
  'alter table public.tenants add column require_2fa_admins boolean not null default false',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table public.tenants drop column require_2fa_customers, drop column require_2fa_admins').execute(db);
}
