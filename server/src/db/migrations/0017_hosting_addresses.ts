import { sql, type Kysely } from 'kysely';

/**
 * The addresses a tenant's hosting server (web and mail) answers at: a new zone points its apex,
 * www and mail host there (modules/dns/service.ts createDefaultZone). Null until the operator
 * sets them; then a zone starts with its mail records only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table public.tenants add column hosting_ipv4 text, add column hosting_ipv6 text').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table public.tenants drop column hosting_ipv4, drop column hosting_ipv6').execute(db);
}
