import { sql, type Kysely } from 'kysely';

/** One row the health check rewrites while writes fail for want of space, to see when there is room again (db/storage.ts). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('create table public.storage_probe (id integer primary key, at timestamptz not null)').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table public.storage_probe').execute(db);
}
