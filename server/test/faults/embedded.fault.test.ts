import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/connection.ts';
import { within } from '../within.ts';
import { repoRoot, startBerth, startPostgres, type BerthProcess, type TestPostgres } from './processes.ts';

// The embedded database under an operator's hands: a second process, the CLI beside the server,
// kill -9 in the middle of writes, and a backup restored into an empty directory.

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'berth-fault-embedded-'));
const dataDir = path.join(dir, 'data');
const adminPassword = randomBytes(18).toString('base64url');
// Logged at info: the backup waits for the line of the server's first expiry pass.
const env = { BERTH_DATA_DIR: dataDir, BERTH_ADMIN_PASSWORD: adminPassword, DATABASE_URL: '', LOG_LEVEL: 'info' };
let berth: BerthProcess;

const cli = (args: string[], extra: Record<string, string> = {}) =>
  run(process.execPath, ['server/src/cli.ts', ...args], { cwd: repoRoot, env: { ...process.env, ...env, LOG_LEVEL: 'silent', ...extra } });

async function login(email: string, password: string): Promise<string> {
  const response = await fetch(`${berth.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, remember: false }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/** md5 of every row of every table, by table: equal maps mean equal data. */
async function checksums(db: Db): Promise<Record<string, string>> {
  const tables = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = 'public' order by 1`.execute(db);
  const result: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const row = await sql<{ sum: string | null; count: number }>`
      select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum, count(*)::int as count from ${sql.table(name)} t`.execute(
      db,
    );
    result[name] = `${row.rows[0]!.count}:${row.rows[0]!.sum}`;
  }
  return result;
}

beforeAll(async () => {
  berth = await startBerth(env);
}, 120_000);

afterAll(async () => {
  await berth?.stop('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('the embedded data directory', () => {
  it('refuses a second server at once, naming the process that holds it', async () => {
    const second = spawn(process.execPath, ['server/src/main.ts'], {
      cwd: repoRoot,
      env: { ...process.env, ...env, PORT: '0', LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    second.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    expect(code).toBe(75);
    expect(stderr).toContain(`in use by process ${berth.child.pid}`);
    expect(stderr).toContain('server/src/main.ts');
    // The first server is untouched.
    expect((await fetch(`${berth.url}/api/health`)).status).toBe(200);
  });

  it('runs the CLI through the running server, and what it wrote survives a restart', async () => {
    const password = randomBytes(18).toString('base64url');
    const created = await cli(['create-user', '--email', 'cli@example.com', '--role', 'customer', `--password=${password}`]);
    expect(created.stdout).toMatch(/Created customer #\d+ cli@example.com/);
    const demo = await cli(['demo', `--password=${password}`]);
    expect(demo.stdout).toContain('Demo tenant #');
    const again = await cli(['demo']);
    expect(again.stdout).toContain('already loaded');
    await login('cli@example.com', password);

    await berth.stop();
    berth = await startBerth(env);
    await login('cli@example.com', password);
    const listed = await fetch(`${berth.url}/api/system/tenants`, { headers: { cookie: await login('admin@localhost', adminPassword) } });
    expect(JSON.stringify(await listed.json())).toContain('Harbor');
  }, 120_000);

  it('loses no acknowledged write when the server is killed with -9', async () => {
    const cookie = await login('admin@localhost', adminPassword);
    const acknowledged: string[] = [];
    let stop = false;
    const writer = async (worker: number) => {
      for (let i = 0; !stop && i < 200; i++) {
        const title = `Kill test ${worker}-${i}`;
        const response = await fetch(`${berth.url}/api/system/tenants`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({ title, hosts: [`kill-${worker}-${i}.example.com`] }),
        }).catch(() => undefined);
        if (!response) return;
        if (response.status === 201 || response.status === 200) acknowledged.push(title);
      }
    };
    const writers = Promise.all([0, 1, 2].map(writer));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await berth.stop('SIGKILL');
    stop = true;
    await writers;
    expect(acknowledged.length).toBeGreaterThan(0);

    berth = await startBerth(env);
    const admin = await login('admin@localhost', adminPassword);
    const titles: string[] = [];
    for (let cursor: string | null = null, page = 0; page < 50; page++) {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const response = await fetch(`${berth.url}/api/system/tenants?limit=100${query}`, { headers: { cookie: admin } });
      const body = (await response.json()) as { data: { title: string }[]; next_cursor: string | null };
      titles.push(...body.data.map((tenant) => tenant.title));
      cursor = body.next_cursor;
      if (!cursor) break;
    }
    const missing = acknowledged.filter((title) => !titles.includes(title));
    expect(missing, `acknowledged ${acknowledged.length}`).toEqual([]);
  }, 120_000);

  it('backs up while the server runs and restores every row into an empty directory', async () => {
    const file = path.join(dir, 'backup.tar.gz');
    // The server's first expiry pass (5 s after it starts: modules/expiry/service.ts) writes
    // reminders, mails and audit rows; taken before it, the backup would lack what it writes.
    await within(30_000, async () => expect(berth.output()).toMatch(/"msg":"expiry reminders(?: sent|: none due)"/));
    const backup = await cli(['backup', file]);
    expect(backup.stdout).toContain('Backup written');
    await berth.stop();

    const restoredDir = path.join(dir, 'restored');
    const restored = await cli(['restore', file], { BERTH_DATA_DIR: restoredDir });
    expect(restored.stdout).toContain('Restored');
    const refused = await cli(['restore', file], { BERTH_DATA_DIR: restoredDir }).catch((error: { stderr: string }) => error);
    expect((refused as { stderr: string }).stderr).toContain('not empty');

    const original = await openDatabase({ dataDir });
    const copy = await openDatabase({ dataDir: restoredDir });
    try {
      const [before, after] = [await checksums(original.db), await checksums(copy.db)];
      expect(Object.keys(before).length).toBeGreaterThan(20);
      expect(after).toEqual(before);
    } finally {
      await Promise.all([original.close(), copy.close()]);
    }
    berth = await startBerth(env);
  }, 120_000);
});

describe('PostgreSQL backup and restore', () => {
  let postgres: TestPostgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await postgres?.destroy();
  });

  it('pg_dump while the server runs, pg_restore into an empty database: the same rows', async () => {
    const pgEnv = { DATABASE_URL: postgres.url };
    // Its jobs' passes are logged at info: this test waits for them.
    const server = await startBerth({ ...env, ...pgEnv, LOG_LEVEL: 'info' });
    const started = Date.now();
    try {
      await cli(['demo', `--password=${randomBytes(18).toString('base64url')}`], pgEnv);
      // The server's expiry and billing jobs make their first passes 5 and 10 s after start
      // (modules/expiry, modules/billing) and write reminders and renewal invoices for the demo's
      // soon-expiring domains; the dump is taken once both have said they are over, so that the
      // running server and the copy hold the same rows (the next passes are an hour away).
      for (const line of ['expiry reminders', '"msg":"billing pass"']) {
        while (!server.output().includes(line)) {
          if (Date.now() - started > 60_000) throw new Error(`no "${line}" from the server: ${server.output().slice(-2000)}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      const file = path.join(dir, 'backup.pgdump');
      expect((await cli(['backup', file], pgEnv)).stdout).toContain('pg_dump');
      const admin = new pg.Client({ connectionString: postgres.url });
      await admin.connect();
      await admin.query('create database restored');
      await admin.end();
      const restoredUrl = postgres.url.replace(/\/postgres$/, '/restored');
      await cli(['restore', file], { DATABASE_URL: restoredUrl });
      const [original, copy] = await Promise.all([
        openDatabase({ databaseUrl: postgres.url, dataDir: '' }),
        openDatabase({ databaseUrl: restoredUrl, dataDir: '' }),
      ]);
      try {
        expect(await checksums(copy.db)).toEqual(await checksums(original.db));
      } finally {
        await Promise.all([original.close(), copy.close()]);
      }
    } finally {
      await server.stop();
    }
  }, 120_000);
});
