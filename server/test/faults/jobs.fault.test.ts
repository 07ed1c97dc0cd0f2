import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpReceiver } from '../smtp-receiver.ts';
import { sleep, startBerth, startPostgres, waitFor, type BerthProcess, type TestPostgres } from './processes.ts';

// Work after an answer is a job in the database, not a promise in the process: `kill -9` of a
// server with jobs queued loses none of them, and the next server runs each once. The killed
// server runs with JOB_WORKERS=off, so the jobs are certainly still queued when it dies.

const ADMIN_EMAIL = 'admin@localhost';
let postgres: TestPostgres;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let env: Record<string, string>;
let db: pg.Client;
const servers: BerthProcess[] = [];

const start = async (workers: 'on' | 'off') => {
  const server = await startBerth({ ...env, JOB_WORKERS: workers });
  servers.push(server);
  return server;
};

const post = (server: BerthProcess, path: string, body: unknown, cookie = '') =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });

/** Jobs per state of one kind, as pg-boss holds them. */
async function jobStates(kind: string): Promise<Record<string, number>> {
  const result = await db.query<{ state: string; n: number }>(
    'select state::text, count(*)::int as n from pgboss.job where name = $1 group by state',
    [kind],
  );
  return Object.fromEntries(result.rows.map((row) => [row.state, row.n]));
}

const mailsTo = (address: string) => smtp.received.filter((mail) => mail.rcptTo.includes(address));

beforeAll(async () => {
  [postgres, smtp] = await Promise.all([startPostgres(), startSmtpReceiver()]);
  env = {
    DATABASE_URL: postgres.url,
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    BERTH_ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
    RATE_LIMITS: 'off',
  };
  db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  await db?.end();
  await smtp?.close();
  await postgres?.destroy();
});

describe('jobs survive kill -9', () => {
  it('a forgot-password answered just before the kill gets its mail from the next server, once', async () => {
    const first = await start('off');
    const answer = await post(first, '/api/password/forgot', { email: ADMIN_EMAIL });
    expect(answer.status).toBe(200);
    expect(await first.stop('SIGKILL')).toBeNull();
    // The answer was given, nothing was sent, and the work is in the database.
    expect(await jobStates('password_reset')).toEqual({ created: 1 });
    expect(mailsTo(ADMIN_EMAIL)).toHaveLength(0);

    await start('on');
    expect(await waitFor(() => mailsTo(ADMIN_EMAIL).length > 0, 30_000)).toBe(true);
    expect(mailsTo(ADMIN_EMAIL)[0]!.raw).toContain('/password/reset/');
    expect(await waitFor(async () => (await jobStates('mail')).completed === 1, 10_000)).toBe(true);
    await sleep(1_000);
    expect(mailsTo(ADMIN_EMAIL)).toHaveLength(1);
    expect(await jobStates('password_reset')).toEqual({ completed: 1 });
    await servers.pop()!.stop('SIGTERM');
  });

  it('100 invitation mails queued when the server is killed are each sent once after the restart', async () => {
    const first = await start('off');
    const login = await post(first, '/api/login', { email: ADMIN_EMAIL, password: env.BERTH_ADMIN_PASSWORD, remember: false });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const invited = Array.from({ length: 100 }, (_, i) => `invited-${i}@example.net`);
    for (const email of invited) {
      const created = await post(
        first,
        '/api/system/customers',
        { email, contact: { given_name: 'In', sn: `Vited ${email}` }, language: 'en' },
        cookie,
      );
      expect(created.status, await created.text()).toBe(201);
    }
    expect(await jobStates('mail')).toMatchObject({ created: 100 });
    await first.stop('SIGKILL');

    await start('on');
    expect(await waitFor(() => invited.every((email) => mailsTo(email).length > 0), 90_000)).toBe(true);
    await sleep(1_000);
    expect(invited.map((email) => mailsTo(email).length)).toEqual(invited.map(() => 1));
    expect((await jobStates('mail')).completed).toBe(101);
  });
});
