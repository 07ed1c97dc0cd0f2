import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answersAt, listening } from '../../src/daemons/mail.ts';
import { answers } from '../../src/daemons/powerdns.ts';
import { installedPhpFpm, webAgentReady } from '../../src/daemons/web.ts';
import { freePort, repoRoot } from '../faults/processes.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import { addDomainWithUser, addUser } from '../hosting.ts';
import { within } from '../within.ts';

// `npm run services` as an operator runs it: every daemon under supervisord, each started again
// by itself within seconds when it dies (kill -9), `status` naming each, `start` again harmless;
// and webmail (Roundcube from Debian) as it serves it, on the daemons it started.

const run = promisify(execFile);
let t: TestApp;
let dataDir: string;
let env: Record<string, string>;
const ports: Record<string, number> = {};

const services = (command: string) =>
  run(process.execPath, ['server/src/daemons/cli.ts', command], { cwd: repoRoot, env: { ...process.env, ...env }, timeout: 90_000 }).catch(
    (error: { stdout?: string; stderr?: string; code?: number }) => ({
      stdout: `${error.stdout ?? ''}${error.stderr ?? ''}`,
      code: error.code,
    }),
  );

beforeAll(async () => {
  t = await createTestApp();
  if (!t.databaseUrl) throw new Error('the daemon tests run on PostgreSQL (BERTH_TEST_DB=postgres)');
  dataDir = mkdtempSync(path.join(tmpdir(), 'berth-services-'));
  for (const name of [
    'DNS',
    'SMTP',
    'IMAP',
    'LMTP',
    'QUOTA_STATUS',
    'REPLY',
    'MAIL_POLICY',
    'SRS_FORWARD',
    'SRS_REVERSE',
    'SUBMISSION',
    'SMTPS',
    'IMAPS',
    'POP3',
    'POP3S',
    'HTTP',
    'HTTPS',
    'FTP',
  ]) {
    ports[name] = await freePort();
  }
  env = {
    DATABASE_URL: t.databaseUrl,
    BERTH_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    // rspamd asks Berth's own name server: nothing it looks up leaves the machine.
    BERTH_RSPAMD_DNS: `127.0.0.1:${ports.DNS}`,
    BERTH_RSPAMD_CACHE_DIR: path.join(tmpdir(), 'berth-rspamd-cache'),
    BERTH_FTP_PASSIVE_PORTS: `${ports.FTP! + 1}:${ports.FTP! + 8}`,
    ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [`BERTH_${name}_PORT`, String(port)])),
  };
  const started = await services('start');
  expect(started.stdout).toMatch(/supervisord started/);
  const logs = () =>
    ['supervisord.log', 'postfix.log', 'mail/postfix.log']
      .map((file) => path.join(dataDir, 'services', file))
      .map((file) => (existsSync(file) ? `${file}:\n${readFileSync(file, 'utf8').slice(-1500)}` : ''))
      .join('\n');
  expect(started.stdout, logs()).not.toMatch(/does not answer/);
}, 180_000);
afterAll(async () => {
  await services('stop');
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const supervisorctl = async (...args: string[]) =>
  (
    await run('supervisorctl', ['-c', path.join(dataDir, 'services', 'supervisord.conf'), ...args]).catch((error: { stdout?: string }) => ({
      stdout: error.stdout ?? '',
    }))
  ).stdout;

const READY: Record<string, () => Promise<boolean>> = {
  powerdns: () => answers('127.0.0.1', ports.DNS!),
  dovecot: () => listening('127.0.0.1', ports.IMAP!),
  postfix: () => listening('127.0.0.1', ports.SMTP!),
  'mail-agent': () => listening('127.0.0.1', ports.MAIL_POLICY!),
  postsrsd: () => listening('127.0.0.1', ports.SRS_FORWARD!),
  rspamd: () => answersAt(path.join(dataDir, 'services', 'mail', 'rspamd-milter', 'milter.sock')),
  nginx: () => listening('127.0.0.1', ports.HTTP!),
  'pure-ftpd': () => listening('127.0.0.1', ports.FTP!),
  'pure-authd': async () => existsSync(path.join(dataDir, 'services', 'web', 'ftp', 'authd.sock')),
  'pure-certd': async () => existsSync(path.join(dataDir, 'services', 'web', 'ftp', 'certd.sock')),
  'web-agent': () => webAgentReady(path.join(dataDir, 'services', 'web')),
  ...Object.fromEntries(
    installedPhpFpm().map((version) => [
      `php${version}-fpm`,
      async () => existsSync(path.join(dataDir, 'services', 'web', `php${version}`, 'idle.sock')),
    ]),
  ),
};

describe('npm run services under supervisord', () => {
  it('status names each daemon as running, and each answers', async () => {
    // Running counts after a second up (startsecs): start may return before that. On a CI machine
    // busy with the other test files rspamd once took longer than 3 s to stay up (its first start
    // there loads what it compiled): 30 s.
    let { stdout } = await services('status');
    for (let i = 0; i < 300 && /STARTING/.test(stdout); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ({ stdout } = await services('status'));
    }
    for (const name of Object.keys(READY)) expect(stdout).toMatch(new RegExp(`\\b${name} RUNNING, pid \\d+; answers`));
    const ctl = await supervisorctl('status');
    for (const name of Object.keys(READY)) expect(ctl).toMatch(new RegExp(`^${name}\\s+RUNNING\\s+pid \\d+`, 'm'));
  }, 60_000);

  it.each(Object.keys(READY))('%s killed with SIGKILL answers again within 5 s, as a new process', async (name) => {
    const pid = Number(/pid (\d+)/.exec(await supervisorctl('pid', name))?.[1] ?? (await supervisorctl('pid', name)).trim());
    expect(pid).toBeGreaterThan(1);
    process.kill(pid, 'SIGKILL');
    const killedAt = Date.now();
    let back = false;
    while (Date.now() - killedAt < 5_000) {
      const now = Number((await supervisorctl('pid', name)).trim());
      if (now > 1 && now !== pid && (await READY[name]!())) {
        back = true;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(back, `${name} back after ${Date.now() - killedAt} ms`).toBe(true);
    if (name === 'nginx' || name === 'rspamd') {
      // nginx's and rspamd's workers outlive a master killed outright and would keep serving the
      // old configuration: the new start ends them (daemons/web.ts, daemons/mail.ts).
      const orphans = () =>
        run('pgrep', ['-g', String(pid)]).then(
          (found) => found.stdout.trim(),
          () => '',
        );
      for (let i = 0; i < 50 && (await orphans()) !== ''; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await orphans()).toBe('');
    }
  });

  it('start while everything runs starts nothing twice', async () => {
    let before = '';
    for (let i = 0; i < 300 && (before = await supervisorctl('status')).match(/RUNNING/g)?.length !== Object.keys(READY).length; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { stdout } = await services('start');
    expect(stdout).toMatch(/supervisord runs already/);
    const pids = (text: string) => [...text.matchAll(/pid (\d+)/g)].map((match) => match[1]).sort();
    expect(pids(await supervisorctl('status'))).toEqual(pids(before));
  }, 60_000);
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request to nginx by name (Host, and SNI over HTTPS): its own default certificate is not checked. */
function ask(
  scheme: 'http' | 'https',
  name: string,
  pathname: string,
  options: { method?: string; cookie?: string; form?: URLSearchParams } = {},
): Promise<Answer> {
  const body = options.form?.toString();
  return new Promise((resolve, reject) => {
    const req = (scheme === 'https' ? httpsRequest : httpRequest)(
      {
        host: '127.0.0.1',
        port: scheme === 'https' ? ports.HTTPS : ports.HTTP,
        path: pathname,
        method: options.method ?? 'GET',
        servername: name,
        rejectUnauthorized: false,
        headers: {
          host: name,
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...(body ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Cookies a browser would send back: the last value of each name. */
function cookieJar(answers: Answer[]): string {
  const jar = new Map<string, string>();
  for (const answer of answers)
    for (const line of answer.headers['set-cookie'] ?? []) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

/** Roundcube's login form as a browser sends it: its answer to the POST, and the session's cookies. */
async function webmailLogin(name: string, user: string, pass: string): Promise<Answer> {
  const page = await ask('https', name, '/');
  const token = /name="_token" value="([^"]+)"/.exec(page.body)?.[1];
  expect(token, page.body.slice(0, 500)).toBeDefined();
  const form = new URLSearchParams({
    _token: token!,
    _task: 'login',
    _action: 'login',
    _timezone: 'UTC',
    _url: '',
    _user: user,
    _pass: pass,
  });
  return ask('https', name, '/?_task=login', { method: 'POST', cookie: cookieJar([page]), form });
}

const webmailUsers = async (username: string) =>
  (await sql<{ username: string }>`select username from roundcube.users where lower(username) = ${username}`.execute(t.db)).rows;

describe('webmail (Roundcube from Debian) at webmail.<panel host> and webmail.<domain>', () => {
  const PASS = 'webmail passphrase 2026 long';

  it('answers over HTTPS only, at its names and at no other, with the login form', async () => {
    // Served from the web agent's first pass on (nginx reloads after start has returned).
    await within(15_000, async () =>
      expect(await ask('http', 'webmail.localhost', '/')).toMatchObject({
        status: 301,
        headers: { location: `https://webmail.localhost:${ports.HTTPS}/` },
      }),
    );
    const page = await ask('https', 'webmail.localhost', '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('id="rcmloginuser"');
    // No version on the page or in the headers.
    expect(page.body).not.toMatch(/Roundcube Webmail \d|1\.6\.\d/);
    expect(page.headers['x-powered-by']).toBeUndefined();
    // Its configuration, its key and Debian's defaults are not served.
    for (const file of ['/config/config.inc.php', '/../roundcube/config.inc.php', '/config.inc.php', '/composer.json', '/SQL/'])
      expect((await ask('https', 'webmail.localhost', file)).status, file).toBeGreaterThanOrEqual(400);
    // A name that is neither the panel host's nor a mail domain's is no one's.
    expect((await ask('https', 'webmail.nobody.example', '/')).status).toBe(404);
  });

  it("logs a mailbox in over IMAP with its own password at its domain's webmail, and forgets it when the mailbox is deleted", async () => {
    const owner = await addUser(t, 1, 'webmail-owner@services.test');
    const address = 'reader@webmail-test.example';
    const domainId = await addDomainWithUser(t, owner.user.id, address, PASS);
    // The web agent learns of the new domain and answers its webmail name.
    await within(15_000, async () => expect((await ask('https', 'webmail.webmail-test.example', '/')).status).toBe(200));

    const refused = await webmailLogin('webmail.webmail-test.example', address, 'not the password at all');
    expect(refused.status).not.toBe(302);
    expect(refused.body).toContain('id="rcmloginuser"');
    const accepted = await webmailLogin('webmail.webmail-test.example', address, PASS);
    expect(accepted.status, accepted.body.slice(0, 300)).toBe(302);
    expect(accepted.headers.location).toMatch(/_task=mail/);
    expect(await webmailUsers(address)).toEqual([{ username: address }]);

    const list = await owner.call({ method: 'GET', url: `/api/host/domain/${domainId}/users` });
    const userId = (list.json().data as { id: number; uid: string }[]).find((row) => row.uid === address)!.id;
    const gone = await owner.call({ method: 'DELETE', url: `/api/host/domain/${domainId}/users/${userId}` });
    expect(gone.statusCode, gone.body).toBeLessThan(300);
    // The next mailbox of this address starts without this one's contacts and settings.
    expect(await webmailUsers(address)).toEqual([]);
  }, 60_000);
});
