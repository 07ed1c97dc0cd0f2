import { sql, type Kysely } from 'kysely';

/**
 * Throttle hits get an id, so an attempt counted before its check can be taken back when the
 * check succeeds (server/src/modules/auth/throttle.ts); TOTP secrets are stored encrypted, with
 * the id of the key that encrypted them (server/src/lib/secret-box.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table throttle_hits add column id bigserial primary key').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table throttle_hits drop column id').execute(db);
}
