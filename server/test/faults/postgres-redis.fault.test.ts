import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  repoRoot,
  sleep,
  startBerth,
  startPostgres,
  startRedis,
  waitFor,
  type BerthProcess,
  type TestPostgres,
  type TestRedis,
} from './processes.ts';

// The server as an operator runs it (a child process on its own PostgreSQL and Redis) while the
// database restarts and Redis goes away under load: the process must live, answer only 200 or a
// clean 503, and come back by itself.

const run = promisify(execFile);
const PATHS = ['/api/host/domain', '/api/user', '/api/dashboard', '/api/notifications'];
const CLIENTS = 8;

let pg: TestPostgres;
let redis: TestRedis;
let berth: BerthProcess;
let cookie = '';

const get = async (path: string) => {
  const response = await fetch(`${berth.url}${path}`, { headers: { cookie } });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.text() };
};

beforeAll(async () => {
  [pg, redis] = await Promise.all([startPostgres(), startRedis()]);
  // The load below is one session far past any caller's allowance: what it measures is the database
  // path, so the rate limits stay out of it; a second server with them on meets Redis going away below.
  const env = {
    DATABASE_URL: pg.url,
    REDIS_URL: redis.url,
    BERTH_ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
    RATE_LIMITS: 'off',
  };
  berth = await startBerth(env);
  const password = randomBytes(18).toString('base64url');
  await run(
    process.execPath,
    ['server/src/cli.ts', 'create-user', '--email', 'fault@example.com', '--role', 'customer', '--tenant', '1', `--password=${password}`],
    { cwd: repoRoot, env: { ...process.env, ...env, LOG_LEVEL: 'silent' } },
  );
  const login = await fetch(`${berth.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'fault@example.com', password, remember: false }),
  });
  expect(login.status).toBe(200);
  cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
}, 120_000);

afterAll(async () => {
  await berth?.stop('SIGKILL');
  await Promise.all([pg?.destroy(), redis?.stop()]);
});

describe('a PostgreSQL restart under load', () => {
  it('never ends the process, answers only 200 or 503 with Retry-After, and recovers within 10 s', async () => {
    const statuses = new Map<number, number>();
    const bad: string[] = [];
    let stop = false;
    const client = async (index: number) => {
      for (let round = 0; !stop && !berth.exited() && round < 2_000; round++) {
        const path = PATHS[(index + round) % PATHS.length]!;
        const answer = await get(path).catch((error: Error) => ({ status: -1, retryAfter: null, body: error.message }));
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status !== 200 && !(answer.status === 503 && answer.retryAfter)) bad.push(`${path} ${answer.status} ${answer.body}`);
        if (answer.status === 503) expect(answer.body).not.toMatch(/at .+\.ts:\d+|stack/i);
        if (answer.status !== 200) await sleep(50);
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
    await sleep(1_500);
    await pg.stop();
    // While it is down: a clean 503 everywhere, and health names the database.
    await sleep(1_000);
    const down = await get('/api/user');
    expect(down.status).toBe(503);
    expect(down.retryAfter).toBeTruthy();
    const health = await fetch(`${berth.url}/api/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'error', database: 'error', redis: 'ok' });
    await pg.start();
    const back = Date.now();
    const recovered = await waitFor(async () => (await get('/api/user')).status === 200, 10_000);
    const recoveredAfterMs = Date.now() - back;
    await sleep(1_000);
    stop = true;
    await load;

    expect(berth.exited(), berth.output()).toBe(false);
    expect(recovered, `not back after ${recoveredAfterMs} ms`).toBe(true);
    expect(bad, bad.slice(0, 5).join('\n')).toEqual([]);
    expect(statuses.get(200)).toBeGreaterThan(0);
    expect(statuses.get(503)).toBeGreaterThan(0);
    expect(berth.output()).not.toMatch(/Unhandled 'error' event|unhandled rejection/);
    // Every path works again for the same session: nothing was lost.
    for (const path of PATHS) expect((await get(path)).status).toBe(200);
  }, 90_000);

  it('lives through a restart while transactions are open (a checked-out connection is ended)', async () => {
    // Logins run a transaction around an argon2 hash; restart in the middle of a burst of them.
    const tries = Array.from({ length: 12 }, () =>
      fetch(`${berth.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'fault@example.com', password: 'not the password at all', remember: false }),
      }).then((response) => response.status),
    );
    await sleep(50);
    await pg.restart();
    const statuses = await Promise.all(tries);
    // Refused as a wrong password (401/422/429) or, while the database is away, a clean 503.
    for (const status of statuses) expect(status === 503 || (status >= 400 && status < 500), String(status)).toBe(true);
    expect(await waitFor(async () => (await get('/api/user')).status === 200, 10_000)).toBe(true);
    expect(berth.exited(), berth.output()).toBe(false);
  }, 60_000);
});

describe('Redis going away', () => {
  it('keeps the API answering, reports redis down in health, and sees it back after a restart', async () => {
    const limited = await startBerth({
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      BERTH_ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
    });
    await redis.stop();
    expect((await get('/api/user')).status).toBe(200);
    // Rate limits count in Redis: while it is away requests pass uncounted, at once, never queued.
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 40 }, () => fetch(`${limited.url}/api/tenant`).then((r) => r.status)));
    expect(
      answers.every((status) => status === 200),
      answers.join(' '),
    ).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    await limited.stop('SIGKILL');
    expect((await get('/api/host/domain')).status).toBe(200);
    expect(
      await waitFor(async () => ((await (await fetch(`${berth.url}/api/health`)).json()) as { redis: string }).redis === 'error', 5_000),
    ).toBe(true);
    const health = await fetch(`${berth.url}/api/health`);
    // The database is what the API needs; realtime waits for Redis.
    expect(health.status).toBe(200);
    redis.start();
    expect(
      await waitFor(async () => ((await (await fetch(`${berth.url}/api/health`)).json()) as { redis: string }).redis === 'ok', 15_000),
    ).toBe(true);
    expect(berth.exited(), berth.output()).toBe(false);
    expect(berth.output()).not.toMatch(/Unhandled 'error' event/);
  }, 60_000);
});
