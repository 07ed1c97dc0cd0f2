import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/connection.ts';

/** Names and the generated password are spliced into statements (DDL takes no parameters): checked first. */
const ROLE = /^[a-z_][a-z0-9_]{0,62}$/;
const PASSWORD = /^[A-Za-z0-9_-]{16,}$/;

/**
 * The daemon role of `base` for one database: `berth_mail_<database>`, so that two Berth databases
 * on one PostgreSQL server never share (and reset) each other's role. Names PostgreSQL would not
 * take as they are get a short hash of the database's name instead.
 */
export function daemonRoleName(base: string, databaseUrl: string): string {
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1)).toLowerCase();
  const plain = `${base}_${database}`;
  if (ROLE.test(plain)) return plain;
  const hash = createHash('sha256').update(database).digest('hex').slice(0, 12);
  return `${base}_${database.replace(/[^a-z0-9_]+/g, '_').slice(0, 63 - base.length - 14)}_${hash}`;
}

/**
 * A login role that reads the daemon's schema and nothing else: usage on the schema, select on
 * its views and tables; Berth's own tables grant nothing to it (or to PUBLIC). Idempotent: an
 * existing role keeps its password (kept in `daemon_roles`, migration 0022), so preparing the
 * services again never locks out daemons already running. Answers the password.
 */
export async function grantSchemaReader(db: Db, role: string, schema: string): Promise<string> {
  if (!ROLE.test(role) || !ROLE.test(schema)) throw new Error(`not a plain name: ${role} / ${schema}`);
  return db.transaction().execute(async (trx) => {
    // One preparation at a time per role: two starts at once agree on one password.
    await sql`select pg_advisory_xact_lock(hashtext(${`berth-daemon-role:${role}`}))`.execute(trx);
    const exists = (await sql<{ n: number }>`select 1 as n from pg_roles where rolname = ${role}`.execute(trx)).rows.length > 0;
    const kept = await trx.selectFrom('daemon_roles').select('password').where('role', '=', role).executeTakeFirst();
    let password = kept?.password;
    if (!exists) await sql.raw(`create role ${role} login`).execute(trx);
    if (!exists || !password || !PASSWORD.test(password)) {
      password = randomBytes(18).toString('base64url');
      await sql.raw(`alter role ${role} with login password '${password}'`).execute(trx);
      await trx
        .insertInto('daemon_roles')
        .values({ role, password })
        .onConflict((conflict) => conflict.column('role').doUpdateSet({ password }))
        .execute();
    }
    await sql.raw(`grant usage on schema ${schema} to ${role}`).execute(trx);
    await sql.raw(`grant select on all tables in schema ${schema} to ${role}`).execute(trx);
    return password;
  });
}

/** PowerDNS writes the serial it last announced (NOTIFY) through the view pdns.domains (migration 0025), nothing else. */
export async function grantNotifiedSerial(db: Db, role: string): Promise<void> {
  if (!ROLE.test(role)) throw new Error(`not a plain name: ${role}`);
  await sql.raw(`grant update (notified_serial) on pdns.domains to ${role}`).execute(db);
}

/** A web server's row (migration 0030), made or found by name: answers its id. */
export async function registerServer(db: Db, name: string, address: string): Promise<number> {
  const row = await db
    .insertInto('servers')
    .values({ name, address, roles: ['web'] })
    .onConflict((conflict) => conflict.column('name').doUpdateSet({ address }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The agent writes its own server's status rows only (row security, migration 0030): its role is named on the server. */
export async function grantWebStatus(db: Db, role: string, serverId: number): Promise<void> {
  if (!ROLE.test(role)) throw new Error(`not a plain name: ${role}`);
  await db.updateTable('servers').set({ agent_role: role }).where('id', '=', serverId).execute();
  await sql.raw(`grant insert, update, delete on web.site_status, web.site_logs, web.server_status to ${role}`).execute(db);
}

/** Sites made while no web server existed go to this one. */
export async function placeUnplacedSites(db: Db, serverId: number): Promise<void> {
  await db.updateTable('domains').set({ web_server_id: serverId }).where('web_server_id', 'is', null).execute();
}

/**
 * Roundcube's tables from Debian's SQL, in a schema of their own (`roundcube`, server/src/daemons/webmail.ts),
 * made once: an advisory lock lets two starts at once make them once.
 */
export async function installWebmailStore(db: Db, schemaSql: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('berth-roundcube-schema'))`.execute(trx);
    await sql.raw('create schema if not exists roundcube').execute(trx);
    const made = (await sql<{ found: string | null }>`select to_regclass('roundcube.users')::text as found`.execute(trx)).rows[0]?.found;
    if (made) return;
    await sql.raw('set local search_path to roundcube').execute(trx);
    // Debian's file as it is: several statements, no parameters (the simple query protocol).
    await sql.raw(schemaSql).execute(trx);
  });
}

/**
 * Roundcube's login role: it reads and writes its own schema's tables and sequences, and finds
 * them by its search path (Debian's SQL names sequences unqualified); Berth's tables grant it nothing.
 */
export async function grantWebmailStore(db: Db, role: string): Promise<string> {
  const password = await grantSchemaReader(db, role, 'roundcube');
  await sql.raw(`grant insert, update, delete on all tables in schema roundcube to ${role}`).execute(db);
  await sql.raw(`grant usage, select, update on all sequences in schema roundcube to ${role}`).execute(db);
  await sql.raw(`alter role ${role} set search_path = roundcube`).execute(db);
  return password;
}
