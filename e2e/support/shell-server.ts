import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { copyMigratedPgliteDirectory } from '../../server/test/migrated-templates.ts';
import { freePort, repoRoot } from './server.ts';

/** The password of every seeded account (long enough for the password policy). */
export const SEED_PASSWORD = 'e2e-shell-harbour-lighthouse-42';

export const seedUsers = {
  superAdmin: 'admin@localhost',
  harborAdmin: 'admin@harbor.localhost',
  /** A customer with 3 cart rows and 30 of harbor's live domains. */
  hana: 'hana@harbor.localhost',
  /** Has seen the 2FA reminder already. */
  petr: 'petr@harbor.localhost',
  fleetAdmin: 'admin@fleet.localhost',
  /** Owns 5,000 live domains. */
  captain: 'captain@fleet.localhost',
  /** The demo's reseller tenant (`cli demo`): partner credit, a promo code, its cart on the panel. */
  resellerAdmin: 'admin@reseller.localhost',
  marta: 'marta@reseller.localhost',
  /** A demo customer no other spec uses (the demo spec's password-reset mail). */
  emma: 'emma@harbor.localhost',
} as const;

/** A seeded customer of the demo tenant that only one spec of one project changes. */
export const ownUser = (purpose: 'badge' | 'lang' | 'notice', project: string): string => `${purpose}-${project}@harbor.localhost`;

export const HARBOR_HOST = 'harbor.localhost';
export const FLEET_HOST = 'fleet.localhost';
export const RESELLER_HOST = 'reseller.localhost';
export const FLEET_CART_URL = 'https://shop.fleet.example/cart';

/** A Berth server on a seeded data directory (support/shell-seed.ts). */
export interface SeededServer {
  port: number;
  /** Tenant 1 (the operator) answers at the loopback address. */
  baseURL: string;
  /** `http://<host>:<port>` of a tenant host (browsers resolve *.localhost to loopback). */
  urlOf(host: string): string;
  output(): string;
  stop(): Promise<void>;
}

const CLEAN_ENV = [
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
  'BERTH_DATA_DIR',
  'BERTH_ADMIN_EMAIL',
  'BERTH_ADMIN_PASSWORD',
  'BERTH_PUBLIC_URL',
  'PORT',
  'HOST',
  'LOG_LEVEL',
];

function environment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CLEAN_ENV) delete env[name];
  return { ...env, ...extra };
}

function run(script: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`${script} exited with ${code}:\n${output}`))));
  });
}

async function waitForOutput(output: () => string, pattern: RegExp, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!pattern.test(output())) {
    if (Date.now() > until) throw new Error(`the seeded server did not log ${pattern} within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Seeds a fresh data directory, then starts `server/src/main.ts` on it. */
export async function startSeededServer(): Promise<SeededServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'berth-e2e-shell-'));
  // Known before seeding: the demo tenants' public addresses (mail links) carry the port.
  const port = await freePort();
  try {
    await copyMigratedPgliteDirectory(dataDir);
    await run(
      path.join(repoRoot, 'e2e/support/shell-seed.ts'),
      environment({ BERTH_DATA_DIR: dataDir, SEED_PASSWORD, SEED_PORT: String(port) }),
    );
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  const child = spawn(process.execPath, [path.join(repoRoot, 'server/src/main.ts')], {
    cwd: repoRoot,
    env: environment({ PORT: String(port), HOST: '127.0.0.1', BERTH_DATA_DIR: dataDir, LOG_LEVEL: 'info', BILLING_EVERY_MINUTES: '0' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    process.off('exit', killOnExit);
    await rm(dataDir, { recursive: true, force: true });
  };

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the seeded server did not start within 60 s')), 60_000);
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('"msg":"Berth is listening"')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the seeded server exited with ${code}`));
      });
    });
  } catch (error) {
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- server output ---\n${output}`, { cause: error });
  }

  // The expiry job's first run (5 s after start) reminds the seeded customers of their demo domains
  // that expire within 30 days, as realtime messages. Waiting for it keeps those out of the specs'
  // pages: they arrive as unread notifications instead of sliding in while a spec looks at a message.
  try {
    await waitForOutput(() => output, /"msg":"expiry reminders(?: sent|: none due| failed)"/, 30_000);
  } catch (error) {
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- server output ---\n${output}`, { cause: error });
  }

  return {
    port,
    baseURL: `http://127.0.0.1:${port}`,
    urlOf: (host) => `http://${host}:${port}`,
    output: () => output,
    stop,
  };
}
