import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startBerth, startPostgres, waitFor, type BerthProcess, type TestPostgres } from './processes.ts';

// The database's disk runs full under a running server: every write answers 503 with Retry-After
// and a message that says so (never a 500), /api/health reports the storage, the process lives,
// and once there is room again writes succeed without a restart. The disk is a small tmpfs of the
// test's own (CI runs as root), filled with a file, then emptied.

const run = promisify(execFile);
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

async function smallDisk(megabytes: number): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'berth-fault-disk-'));
  await run('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0755`, 'tmpfs', dir]);
  cleanups.push(async () => {
    await run('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Fills the disk with one file (dd stops at ENOSPC), answering how to empty it again. */
async function fill(dir: string): Promise<() => void> {
  const filler = path.join(dir, 'filler');
  await run('dd', ['if=/dev/zero', `of=${filler}`, 'bs=1M']).catch(() => undefined);
  return () => rmSync(filler, { force: true });
}

async function signIn(berth: BerthProcess, password: string): Promise<string> {
  const response = await fetch(`${berth.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@localhost', password, remember: false }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/** Writes (a domain each, with a long note) until one is refused: every answer is 201 or the 503 asked for. */
async function writeUntilRefused(berth: BerthProcess, cookie: string): Promise<Response> {
  const note = 'n'.repeat(4000);
  for (let i = 0; i < 3000; i++) {
    const response = await fetch(`${berth.url}/api/host/domain`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name: `full-${i}-${randomBytes(3).toString('hex')}.example`, notes: note }),
    });
    if (response.status !== 201) return response;
  }
  throw new Error('3000 writes fitted on a full disk');
}

async function expectFullThenRecovered(berth: BerthProcess, cookie: string, empty: () => void) {
  const refused = await writeUntilRefused(berth, cookie);
  expect(refused.status, await refused.clone().text()).toBe(503);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect((await refused.json()).message).toBe('The server has run out of storage space: nothing was saved. Please try again later.');
  const health = await fetch(`${berth.url}/api/health`);
  expect(health.status).toBe(503);
  const state = await health.json();
  expect(state).toMatchObject({ status: 'error', database: 'ok', storage: 'error' });
  expect(berth.exited()).toBe(false);

  empty();
  expect(await waitFor(async () => (await fetch(`${berth.url}/api/health`)).status === 200, 30_000)).toBe(true);
  const again = await fetch(`${berth.url}/api/host/domain`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ name: `after-${randomBytes(3).toString('hex')}.example` }),
  });
  expect(again.status, await again.clone().text()).toBe(201);
  expect(berth.exited()).toBe(false);
}

describe('a full disk under the database', () => {
  it('on PostgreSQL: 503 with Retry-After for writes, health says so, back by itself once there is room', async () => {
    const disk = await smallDisk(96);
    // The test's own PostgreSQL, its data directory on the small disk.
    const pg: TestPostgres = await startPostgres({ parent: disk });
    cleanups.push(() => pg.destroy());
    const password = randomBytes(18).toString('base64url');
    const berth = await startBerth({ DATABASE_URL: pg.url, BERTH_ADMIN_PASSWORD: password, RATE_LIMITS: 'off' });
    cleanups.push(async () => void (await berth.stop('SIGKILL')));
    const cookie = await signIn(berth, password);
    const empty = await fill(disk);
    await expectFullThenRecovered(berth, cookie, empty);
  }, 180_000);

  it('on the embedded database: the same', async () => {
    const disk = await smallDisk(160);
    const dataDir = path.join(disk, 'data');
    mkdirSync(dataDir);
    const password = randomBytes(18).toString('base64url');
    const berth = await startBerth({ DATABASE_URL: '', BERTH_DATA_DIR: dataDir, BERTH_ADMIN_PASSWORD: password, RATE_LIMITS: 'off' });
    cleanups.push(async () => void (await berth.stop('SIGKILL')));
    const cookie = await signIn(berth, password);
    const empty = await fill(disk);
    await expectFullThenRecovered(berth, cookie, empty);
  }, 180_000);
});
