import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { pino, type LoggerOptions } from 'pino';
import { loggerOptions } from '../src/http/logging.ts';
import type { FastifyInstance } from 'fastify';
import { buildApp, type Services } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/connection.ts';
import { ManualClock } from '../src/lib/clock.ts';
import { ensureOperator } from '../src/modules/tenants/bootstrap.ts';
import { migratedPglite, migratedPostgres } from './migrated-templates.ts';

export const ADMIN_EMAIL = 'admin@localhost';
export const ADMIN_PASSWORD = 'sturdy lantern orchard velvet';

/** Which database the integration tests run on: the vitest project sets it. */
const target = process.env.BERTH_TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export interface TestDatabase {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The PostgreSQL database's address (postgres only): what daemons reading it connect to. */
  url?: string;
  close(): Promise<void>;
}

/**
 * A clean database per call: PGlite in memory, or a new PostgreSQL database dropped afterwards.
 * `migrated`: it starts from the migrated template (apps; the migration tests want none).
 * `serverUrl`: the PostgreSQL server to make it on, for a test that runs its own (default:
 * TEST_DATABASE_URL, the shared one).
 */
export async function openTestDatabase(
  options: { onQuery?: (sql: string) => void; migrated?: boolean; serverUrl?: string } = {},
): Promise<TestDatabase> {
  const { migrated, serverUrl: ownServer, ...databaseOptions } = options;
  if (target === 'pglite') {
    const handle = await openDatabase({
      dataDir: 'memory://',
      ...(migrated ? { loadDataDir: await migratedPglite() } : {}),
      ...databaseOptions,
    });
    return { db: handle.db, kind: 'pglite', close: handle.close };
  }
  const serverUrl = ownServer ?? process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('BERTH_TEST_DB=postgres needs TEST_DATABASE_URL');
  const template = migrated ? await migratedPostgres(serverUrl) : undefined;
  const name = `berth_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: '', ...databaseOptions });
  return {
    db: handle.db,
    kind: 'postgres',
    url: url.toString(),
    close: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  db: Db;
  clock: ManualClock;
  config: Config;
  /** Set on PostgreSQL: the test database's address. */
  databaseUrl?: string | undefined;
  close(): Promise<void>;
}

/**
 * Builds the real app on a clean database with a controllable clock. `logLines` collects the JSON
 * log lines the production logger configuration writes (to check what never reaches a log).
 * `databaseServerUrl`: a PostgreSQL server of the test's own to make the database on.
 */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    webDistDir?: string;
    logLines?: string[];
    onQuery?: (sql: string) => void;
    databaseServerUrl?: string;
  } = {},
): Promise<TestApp> {
  const database = await openTestDatabase({
    migrated: true,
    ...(options.onQuery ? { onQuery: options.onQuery } : {}),
    ...(options.databaseServerUrl ? { serverUrl: options.databaseServerUrl } : {}),
  });
  // Each test app has its own secret key, as a deployment sets BERTH_SECRET_KEY.
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    BERTH_ADMIN_PASSWORD: ADMIN_PASSWORD,
    BERTH_SECRET_KEY: randomBytes(32).toString('hex'),
    // On PostgreSQL the app knows its address, as a deployment does (the daemons read it).
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...options.env,
  });
  const clock = new ManualClock(new Date('2026-11-01T09:00:00Z'));
  const { app, services } = await buildApp({
    config,
    db: database.db,
    clock,
    logger: options.logLines
      ? pino(loggerOptions('info') as LoggerOptions, { write: (line: string) => void options.logLines?.push(line) })
      : pino({ level: 'silent' }),
    webDistDir: options.webDistDir ?? '/nonexistent-web-dist',
  });
  await ensureOperator(database.db, services.hasher, clock, {
    adminEmail: config.BERTH_ADMIN_EMAIL,
    adminPassword: config.BERTH_ADMIN_PASSWORD,
    publicUrl: undefined,
  });
  await app.ready();
  return {
    app,
    services,
    db: database.db,
    clock,
    config,
    databaseUrl: database.url,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** The session cookie an answer set, as a Cookie header value. */
export function sessionCookieFrom(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const found = list.find((c) => c.startsWith('berth_session='));
  if (!found) throw new Error(`no session cookie in ${JSON.stringify(list)}`);
  return found.split(';')[0] ?? '';
}

export async function login(app: FastifyInstance, email = ADMIN_EMAIL, password = ADMIN_PASSWORD, remember = true) {
  const response = await app.inject({ method: 'POST', url: '/api/login', payload: { email, password, remember } });
  if (response.statusCode !== 200) throw new Error(`login failed: ${response.statusCode} ${response.body}`);
  return { response, cookie: sessionCookieFrom(response.headers['set-cookie']) };
}

/** A customer of tenant 1 with a known password, created directly (fixtures do not go through screens). */
export async function createCustomer(t: TestApp, email: string, password = 'another long passphrase 42') {
  const { createUser } = await import('../src/modules/users/service.ts');
  const user = await createUser(t.db, t.services.hasher, t.clock, {
    tenantId: 1,
    email,
    password,
    role: 'customer',
    given_name: 'Cleo',
    sn: 'Customer',
  });
  return { user, email, password };
}
