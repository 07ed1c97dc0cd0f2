import { Kysely, PostgresDialect, sql, type Compilable, type CompiledQuery, type KyselyConfig, type QueryResult } from 'kysely';
import { PGlite } from '@electric-sql/pglite';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export interface DbTarget {
  /** A PostgreSQL URL; without it the embedded PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite's data directory; `memory://` keeps it in memory (tests). */
  dataDir: string;
  /** Restore: a new PGlite data directory starts from this dump (gzip tar of dumpDataDir). */
  loadDataDir?: Blob | undefined;
  /** A connection failed outside a query (server restart, network): logged, never fatal. */
  onConnectionError?: (error: Error) => void;
  /** Called with each statement sent (the bench and tests count queries per request with it). */
  onQuery?: (sql: string) => void;
}

export type DbHandle =
  { db: Db; kind: 'postgres'; close(): Promise<void> } | { db: Db; kind: 'pglite'; close(): Promise<void>; dumpDataDir(): Promise<Blob> };

// int8 (bigint counts and ids) as JS numbers: every count and id here fits in 2^53.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

const queryLog = (target: DbTarget): Pick<KyselyConfig, 'log'> => {
  const { onQuery } = target;
  if (!onQuery) return {};
  return {
    log: (event) => {
      if (event.level === 'query') onQuery(event.query.sql);
    },
  };
};

/** SQL text -> statement name: the queries sent as named prepared statements (see `preparedStatement`). */
const preparedNames = new Map<string, string>();

/** What a stand-in of `preparedStatement` looks like: changed by `.toLowerCase()`, `.trim()` or JSON alike. */
const SLOT = ' Berth-Slot:';

/**
 * A statement whose SQL is the same on every call, built and compiled by Kysely once (at the first
 * call) and sent as a named prepared statement, so PostgreSQL parses and plans it once per
 * connection: each later call only puts its values in place. For the hot paths: planning the
 * session's join cost more than running it (bench: 2.2k against 6.9k selects/s), and building
 * the login's statements again on every call cost about a tenth of its JavaScript (bench: logins
 * against raw argon2id verifies).
 *
 * `build` gets stand-ins for the values and must pass each one to Kysely as it is: a value
 * changed in JavaScript (lower-cased, joined into a string, serialized) would be compiled in as a
 * constant, so the caller does that work before the call, and the first call fails loudly when a
 * stand-in did not reach the query unchanged.
 */
export function preparedStatement<P extends object, O>(
  name: string,
  build: (db: Db, values: P) => Compilable<O> | CompiledQuery<O>,
): (db: Db, values: P) => Promise<QueryResult<O>> {
  let compiled: { query: CompiledQuery<O>; slots: (keyof P | undefined)[] } | undefined;
  const compile = (db: Db) => {
    const read = new Set<string>();
    const standIns = new Proxy({} as P, {
      get: (_target, key) => {
        if (typeof key !== 'string') return undefined;
        read.add(key);
        return SLOT + key;
      },
    });
    const built = build(db, standIns);
    const query = 'compile' in built ? built.compile() : built;
    const placed = new Set<string>();
    const slots = query.parameters.map((parameter) => {
      if (typeof parameter !== 'string' || !parameter.toLowerCase().includes(SLOT.trim().toLowerCase())) return undefined;
      const key = parameter.slice(SLOT.length);
      if (!parameter.startsWith(SLOT) || !read.has(key))
        throw new Error(`statement ${name}: a value was changed on its way into the query`);
      placed.add(key);
      return key as keyof P;
    });
    const lost = [...read].filter((key) => !placed.has(key));
    if (lost.length > 0) throw new Error(`statement ${name}: ${lost.join(', ')} did not reach the query as a value`);
    preparedNames.set(query.sql, name);
    return { query, slots };
  };
  return async (db, values) => {
    compiled ??= compile(db);
    const { query, slots } = compiled;
    const parameters = slots.map((slot, index) => (slot === undefined ? query.parameters[index] : values[slot]));
    return db.executeQuery({ ...query, parameters });
  };
}

/** PostgreSQL's "cached plan must not change result type": a migration changed a table under the statement. */
const PLAN_RESULT_CHANGED = '0A000';

/** A pg client that sends the SQL of `preparedStatement`s as named statements. */
class PreparingClient extends pg.Client {
  // Kysely's driver calls query(text, values) and awaits the promise; everything else passes through.
  override query(...args: unknown[]): never {
    const [text, values] = args;
    const name = typeof text === 'string' && args.length === 2 ? preparedNames.get(text) : undefined;
    const query = super.query.bind(this) as (...a: unknown[]) => Promise<pg.QueryResult>;
    if (!name) return query(...args) as never;
    return query({ name, text, values }).catch(async (error: unknown) => {
      if ((error as { code?: string }).code !== PLAN_RESULT_CHANGED) throw error;
      // Forget the stale statement on this connection and parse it again.
      await query(`deallocate "${name}"`);
      delete (this as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements[name];
      return query({ name, text, values });
    }) as never;
  }
}

/** The PGlite instance behind an embedded database's Kysely handle (the job queue runs its own SQL on it). */
const embedded = new WeakMap<Db, PGlite>();

export function embeddedDatabaseOf(db: Db): PGlite | undefined {
  return embedded.get(db);
}

export async function openDatabase(target: DbTarget): Promise<DbHandle> {
  if (target.databaseUrl) {
    // A bounded wait for a connection: while the server is away, requests fail fast (503) instead
    // of queueing until the load balancer gives up. An idle connection is kept a minute (pg's
    // default: 10 s), so traffic coming in bursts does not start a backend, warm its caches and
    // prepare the hot statements again at every burst (bench: logins against argon2id verifies,
    // whose rounds are 10 s apart).
    const pool = new pg.Pool({
      connectionString: target.databaseUrl,
      max: 10,
      idleTimeoutMillis: 60_000,
      connectionTimeoutMillis: 5_000,
      Client: PreparingClient,
    });
    const report = (error: Error) => target.onConnectionError?.(error);
    // An idle connection the server drops (restart, failover) must not crash the process; the
    // pool replaces it on the next query.
    pool.on('error', report);
    // The pool listens for errors only on idle clients. A checked-out client whose connection
    // the server ends between two queries (57P01 on restart, inside a transaction) emits 'error'
    // with nobody listening, which would end the process; the query in flight fails on its own.
    pool.on('connect', (client) => client.on('error', report));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...queryLog(target) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  let dataDir = target.dataDir;
  if (!dataDir.startsWith('memory://')) {
    dataDir = resolve(dataDir);
    mkdirSync(dataDir, { recursive: true });
  }
  const pglite = await PGlite.create(dataDir, {
    parsers: { 20: (value: string) => Number.parseInt(value, 10) },
    ...(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite), ...queryLog(target) });
  embedded.set(db, pglite);
  return { db, kind: 'pglite', close: () => db.destroy(), dumpDataDir: () => pglite.dumpDataDir('gzip') };
}

export async function pingDatabase(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
