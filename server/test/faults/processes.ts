import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../ports.ts';

/*
 * Real PostgreSQL, Redis and Berth processes for the fault tests: each test starts its own on
 * free loopback ports and stops them after, so the machine's shared instances are never touched.
 */

const run = promisify(execFile);
export const repoRoot = path.resolve(import.meta.dirname, '../../..');

export { freePort };

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 100 ms until it is true or `ms` have passed; answers whether it became true. */
export async function waitFor(check: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return true;
    await sleep(100);
  }
  return false;
}

const pgBin = (name: string) => {
  const versions = readdirSync('/usr/lib/postgresql').sort();
  return path.join('/usr/lib/postgresql', versions[versions.length - 1]!, 'bin', name);
};

/** initdb refuses root; the cluster belongs to the postgres user, as Debian's own does. */
const asPostgres = (command: string, args: string[]) =>
  process.getuid?.() === 0 ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args);

export interface TestPostgres {
  url: string;
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  restart(): Promise<void>;
  destroy(): Promise<void>;
}

/** A PostgreSQL of the test's own; `parent`: where its directory goes (a small disk, for the full-disk test). */
export async function startPostgres(where: { parent?: string } = {}): Promise<TestPostgres> {
  const dir = mkdtempSync(path.join(where.parent ?? tmpdir(), 'berth-fault-pg-'));
  if (process.getuid?.() === 0) chownSync(dir, 101, 104);
  const data = path.join(dir, 'data');
  const port = await freePort();
  await asPostgres(pgBin('initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const pgCtl = (...args: string[]) =>
    asPostgres(pgBin('pg_ctl'), ['-D', data, '-w', '-t', '30', '-o', options, '-l', path.join(dir, 'log'), ...args]);
  const handle: TestPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: async () => void (await pgCtl('start')),
    stop: async () => void (await pgCtl('stop', '-m', 'fast')),
    restart: async () => void (await pgCtl('restart', '-m', 'fast')),
    destroy: async () => {
      await pgCtl('stop', '-m', 'immediate').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await handle.start();
  return handle;
}

export interface TestRedis {
  url: string;
  start(): void;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const handle: TestRedis = {
    url: `redis://127.0.0.1:${port}`,
    start: () => {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: 'ignore',
      });
    },
    stop: async () => {
      const current = child;
      if (!current || current.exitCode !== null) return;
      const exited = new Promise((resolve) => current.once('exit', resolve));
      current.kill('SIGKILL');
      await exited;
    },
  };
  handle.start();
  return handle;
}

export interface BerthProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  exited: () => boolean;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `node server/src/main.ts` with the given environment; resolves once /api/health answers 200. */
export async function startBerth(env: Record<string, string>, options: { waitMs?: number } = {}): Promise<BerthProcess> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['server/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ARGON2_MEMORY_KIB: '19456', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const handle: BerthProcess = {
    url,
    child,
    output: () => output,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    stop: async (signal = 'SIGTERM') => {
      if (handle.exited()) return child.exitCode;
      const done = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal);
      return done;
    },
  };
  const up = await waitFor(async () => {
    if (handle.exited()) throw new Error(`berth exited: ${output}`);
    return (await fetch(`${url}/api/health`)).status === 200;
  }, options.waitMs ?? 60_000);
  if (!up) throw new Error(`berth did not start: ${output}`);
  return handle;
}
