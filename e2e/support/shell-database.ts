import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The local PostgreSQL server (the same one the API tests use); E2E_POSTGRES_URL points elsewhere. */
const SERVER_URL = process.env.E2E_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface ThrowawayDatabase {
  url: string;
  drop(): Promise<void>;
}

async function onServer(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh PostgreSQL database `berth_e2e_<random>` for specs that run several server instances on
 * one database (PGlite allows one process per data directory). Dropped by `drop()`, also while
 * servers are still connected.
 */
export async function createThrowawayDatabase(): Promise<ThrowawayDatabase> {
  const name = `berth_e2e_${randomBytes(6).toString('hex')}`;
  await onServer((client) => client.query(`create database ${name}`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: () => onServer((client) => client.query(`drop database if exists ${name} with (force)`)),
  };
}
