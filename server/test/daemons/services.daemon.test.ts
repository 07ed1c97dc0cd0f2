import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listening } from '../../src/daemons/mail.ts';
import { answers } from '../../src/daemons/powerdns.ts';
import { installedPhpFpm, webAgentReady } from '../../src/daemons/web.ts';
import { freePort, repoRoot } from '../faults/processes.ts';
import { createTestApp, type TestApp } from '../harness.ts';

// `npm run services` as an operator runs it: every daemon under supervisord, each started again
// by itself within seconds when it dies (kill -9), `status` naming each, `start` again harmless.

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
    'MILTER',
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
  rspamd: () => listening('127.0.0.1', ports.MILTER!),
  nginx: () => listening('127.0.0.1', ports.HTTP!),
  'pure-ftpd': () => listening('127.0.0.1', ports.FTP!),
  'pure-authd': async () => existsSync(path.join(dataDir, 'services', 'web', 'ftp', 'authd.sock')),
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
