import pg from 'pg';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';

/*
 * Databases with every migration applied, made once per machine and schema and copied for each
 * test: a fresh PGlite ran initdb and 50 migrations in 8-15 s on CI's two cores (one per test file
 * and per e2e server), where loading a copy takes 2; on PostgreSQL the migrations took 1.3 s per
 * test app, a copy by CREATE DATABASE … TEMPLATE 0.2.
 */

const repoRoot = path.resolve(import.meta.dirname, '../..');

/**
 * What the templates are made of: every migration and the contracts' constants they read, and the
 * embedded database's version. A change to any of them makes new templates; a change to a test
 * beside them does not.
 */
function schemaKey(): string {
  const hash = createHash('sha256');
  const add = (dir: string) => {
    const files = readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && !/\.test\.ts$/.test(entry.name))
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort();
    for (const file of files) hash.update(path.relative(repoRoot, file)).update(readFileSync(file));
  };
  add(path.join(repoRoot, 'server/src/db'));
  add(path.join(repoRoot, 'contracts/src'));
  hash.update(readFileSync(path.join(repoRoot, 'node_modules/@electric-sql/pglite/package.json')));
  return hash.digest('hex').slice(0, 16);
}
let key: string | undefined;
const templateKey = () => (key ??= schemaKey());

/** Builds `target` under a temporary name and renames it, so nobody ever reads a half-made one. */
async function publish(target: string, build: (partial: string) => Promise<void>): Promise<void> {
  const partial = `${target}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  await build(partial);
  try {
    renameSync(partial, target);
  } catch (error) {
    // Another process published the same template first (a directory is not replaced by rename).
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(target)) throw error;
  }
}

/**
 * The migrated embedded database as a data directory: the one place the migrations run on PGlite.
 * The e2e servers copy it, and the dump below is taken from a copy of it.
 */
async function migratedPgliteDirectory(): Promise<string> {
  const template = path.join(tmpdir(), `berth-test-pglite-dir-${templateKey()}`);
  if (!existsSync(template)) {
    await publish(template, async (partial) => {
      const handle = await openDatabase({ dataDir: partial });
      try {
        await migrateToLatest(handle.db);
      } finally {
        await handle.close();
      }
    });
  }
  return template;
}

let dump: Promise<Blob> | undefined;
/** The migrated embedded database as a dump, for a PGlite in memory (`loadDataDir`). */
export function migratedPglite(): Promise<Blob> {
  dump ??= (async () => {
    const file = path.join(tmpdir(), `berth-test-pglite-${templateKey()}.tar.gz`);
    if (!existsSync(file)) {
      const directory = await migratedPgliteDirectory();
      await publish(file, async (partial) => {
        // PGlite writes to the directory it opens: it opens a copy, never the template.
        const copy = `${partial}.dir`;
        cpSync(directory, copy, { recursive: true });
        try {
          const handle = await openDatabase({ dataDir: copy });
          if (handle.kind !== 'pglite') throw new Error('expected the embedded database');
          const data = await handle.dumpDataDir();
          await handle.close();
          writeFileSync(partial, new Uint8Array(await data.arrayBuffer()));
        } finally {
          rmSync(copy, { recursive: true, force: true });
        }
      });
    }
    return new Blob([readFileSync(file)]);
  })();
  return dump;
}

/** Fills the empty data directory `dataDir` with a migrated embedded database (e2e servers' BERTH_DATA_DIR). */
export async function copyMigratedPgliteDirectory(dataDir: string): Promise<void> {
  cpSync(await migratedPgliteDirectory(), dataDir, { recursive: true });
}

const postgresTemplates = new Map<string, Promise<string>>();
/**
 * The name of a migrated database on the PostgreSQL server at `serverUrl` (the shared one, or a
 * test's own) to copy test databases from. One process makes it under an advisory lock while the
 * others wait; templates of an earlier schema are dropped.
 */
export function migratedPostgres(serverUrl: string): Promise<string> {
  const known = postgresTemplates.get(serverUrl);
  if (known) return known;
  const made = (async () => {
    const name = `berth_template_${templateKey()}`;
    const lock = 'berth test template';
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query('select pg_advisory_lock(hashtext($1))', [lock]);
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount === 0) {
        const partial = `${name}_partial`;
        await admin.query(`drop database if exists ${partial} with (force)`);
        await admin.query(`create database ${partial}`);
        const url = new URL(serverUrl);
        url.pathname = `/${partial}`;
        const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
        try {
          await migrateToLatest(handle.db);
        } finally {
          await handle.close();
        }
        await admin.query(`alter database ${partial} rename to ${name}`);
        const stale = await admin.query<{ datname: string }>(
          "select datname from pg_database where datname like 'berth\\_template\\_%' and datname <> $1",
          [name],
        );
        for (const { datname } of stale.rows) await admin.query(`drop database if exists ${datname} with (force)`);
      }
      return name;
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', [lock]).catch(() => undefined);
      await admin.end();
    }
  })();
  postgresTemplates.set(serverUrl, made);
  return made;
}
