import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig, type Config } from '../../server/src/config.ts';

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

const DEFAULT_SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

async function withAdminClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database `berth_bench_<random>` on the PostgreSQL server of BENCH_DATABASE_URL (or the
 * local default), so a run never touches data anyone keeps.
 */
export async function createBenchDatabase(serverUrl = process.env.BENCH_DATABASE_URL ?? DEFAULT_SERVER_URL): Promise<BenchDatabase> {
  const adminUrl = new URL(serverUrl);
  adminUrl.pathname = '/postgres';
  const name = `berth_bench_${randomBytes(6).toString('hex')}`;
  await withAdminClient(adminUrl.href, (client) => client.query(`create database ${name}`));
  const url = new URL(adminUrl.href);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      await withAdminClient(adminUrl.href, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/** The app's configuration for an in-process bench on `databaseUrl`: production, quiet, no rate limits. */
export const benchAppConfig = (databaseUrl: string, env: Record<string, string> = {}): Config =>
  loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    RATE_LIMITS: 'off',
    // Benches talk to loopback only: no certificate is ordered from a public CA (bench/src/certificates.ts: Pebble).
    ACME_DIRECTORY_URL: 'off',
    ...env,
  });
