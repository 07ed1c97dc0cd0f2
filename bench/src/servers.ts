import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../server/test/ports.ts';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

export interface RunningServer {
  name: string;
  url: string;
  /** Its process (bench/src/cpu-split.ts reads its threads' CPU). */
  pid?: number | undefined;
  output(): string;
  stop(): Promise<void>;
}

export { freePort };

function spawnNode(script: string, env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [script], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  process.once('exit', () => child.kill('SIGKILL'));
  return { child, output: () => output };
}

function stopper(child: ChildProcess, timeoutMs = 10_000): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    await exited;
    clearTimeout(timer);
  };
}

async function waitUntil(ready: () => Promise<boolean>, child: ChildProcess, what: string, output: () => string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}:\n${output()}`);
    if (await ready()) return;
    await sleep(100);
  }
  throw new Error(`${what} was not ready within ${timeoutMs} ms:\n${output()}`);
}

export interface BerthOptions {
  databaseUrl: string;
  adminEmail: string;
  adminPassword: string;
  argon2MemoryKib: number;
  argon2TimeCost: number;
}

/** The real server (`server/src/main.ts`) on PostgreSQL, quiet (warn) so logging does not dominate. */
export async function startBerth(options: BerthOptions): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    // Benches talk to loopback only: no certificate is ordered from a public CA.
    ACME_DIRECTORY_URL: 'off',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: options.databaseUrl,
    BERTH_ADMIN_EMAIL: options.adminEmail,
    BERTH_ADMIN_PASSWORD: options.adminPassword,
    ARGON2_MEMORY_KIB: String(options.argon2MemoryKib),
    ARGON2_TIME_COST: String(options.argon2TimeCost),
    LOG_LEVEL: 'warn',
    // One user's session under load would meet the read allowance at once: the bench measures
    // the request path, not the limiter (docs/decisions/0007-rate-limit-presets.md).
    RATE_LIMITS: 'off',
  };
  delete env.BERTH_PUBLIC_URL;
  delete env.REDIS_URL;
  const { child, output } = spawnNode(path.join(repoRoot, 'server/src/main.ts'), env);
  const stop = stopper(child);
  try {
    await waitUntil(
      async () => {
        try {
          const answer = await fetch(`${url}/api/health`);
          return answer.ok;
        } catch {
          return false;
        }
      },
      child,
      'Berth',
      output,
      30_000,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { name: 'Berth', url, pid: child.pid, output, stop };
}

/** A baseline server of bench/src in its own process, like the server it is compared with. */
async function startBaselineScript(script: string, name: string, env: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  const { child, output } = spawnNode(path.join(import.meta.dirname, script), { ...process.env, ...env, PORT: '0' });
  const stop = stopper(child);
  let url = '';
  try {
    await waitUntil(
      async () => {
        url = /listening (http:\/\/\S+)/.exec(output())?.[1] ?? '';
        return url !== '';
      },
      child,
      name,
      output,
      15_000,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { name, url, pid: child.pid, output, stop };
}

/** The bare Fastify hello world. */
export const startBaseline = () => startBaselineScript('baseline-server.ts', 'Fastify hello world');

/** Fastify with a pool like Berth's, one select by primary key per request, on Berth's database. */
export const startPoolBaseline = (databaseUrl: string) =>
  startBaselineScript('pool-baseline-server.ts', 'Fastify + one pooled select', { DATABASE_URL: databaseUrl });

/** Fastify answering a POST after one argon2id verify of the posted password against `hash`. */
export const startVerifyBaseline = (hash: string) =>
  startBaselineScript('verify-baseline-server.ts', 'Fastify + argon2id verify', { VERIFY_HASH: hash });

/**
 * Fastify answering a POST after Berth's own password step on `databaseUrl` (its two statements and
 * the verify), signing in as `adminEmail` on that user's tenant.
 */
export const startLoginFloor = (databaseUrl: string, adminEmail: string) =>
  startBaselineScript('login-floor-server.ts', "Fastify + Berth's sign-in", { DATABASE_URL: databaseUrl, ADMIN_EMAIL: adminEmail });
