import { sql } from 'kysely';
import type { Db } from '../db/connection.ts';

/** Names and the generated password are spliced into statements (DDL takes no parameters): checked first. */
const ROLE = /^[a-z_][a-z0-9_]{0,62}$/;
const PASSWORD = /^[A-Za-z0-9_-]{16,}$/;

/**
 * A login role that reads the daemon's schema and nothing else: usage on the schema, select on
 * its views and tables; Berth's own tables grant nothing to it (or to PUBLIC). Idempotent; the
 * password is set anew each time.
 */
export async function grantSchemaReader(db: Db, role: string, schema: string, password: string): Promise<void> {
  if (!ROLE.test(role) || !ROLE.test(schema) || !PASSWORD.test(password)) throw new Error(`not a plain name: ${role} / ${schema}`);
  await sql
    .raw(
      `do $$ begin
        if not exists (select 1 from pg_roles where rolname = '${role}') then create role ${role} login; end if;
      end $$`,
    )
    .execute(db);
  await sql.raw(`alter role ${role} with login password '${password}'`).execute(db);
  await sql.raw(`grant usage on schema ${schema} to ${role}`).execute(db);
  await sql.raw(`grant select on all tables in schema ${schema} to ${role}`).execute(db);
}
