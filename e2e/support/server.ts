import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { copyMigratedPgliteDirectory } from '../../server/test/migrated-templates.ts';
import { freePort } from '../../server/test/ports.ts';

export interface AdminCredentials {
  email: string;
  password: string;
}

/** One running Berth server on a fresh embedded database, as the e2e tests see it. */
export interface BerthServer {
  baseURL: string;
  /** The first super admin, read from the banner the server prints on an empty database. */
  admin: AdminCredentials;
  /** The PostgreSQL database it runs on, when not on a throwaway PGlite directory. */
  databaseUrl?: string | undefined;
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Extra environment for the server (on top of a clean embedded-mode environment). */
  env?: Record<string, string>;
  startTimeoutMs?: number;
  stopTimeoutMs?: number;
  /** A PostgreSQL database instead of a throwaway PGlite directory (several instances may share one). */
  databaseUrl?: string;
  /** This port instead of a free one (a restart on the same address). */
  port?: number;
  /**
   * The database has its first super admin already (a second instance, a restart), so the server
   * prints no banner: these are the credentials to hand out instead.
   */
  admin?: AdminCredentials;
}

export const repoRoot = path.resolve(import.meta.dirname, '../..');
const mainScript = path.join(repoRoot, 'server/src/main.ts');

export { freePort };

/** Reads the credentials out of the "first super admin created" banner. */
export function parseAdminBanner(text: string): AdminCredentials | undefined {
  const match = /first super admin created\s*\n\s*e-mail:\s+(\S+)\s*\n\s*password:\s+(\S+)/.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  return { email: match[1], password: match[2] };
}

const isListeningLine = (line: string): boolean => {
  if (!line.startsWith('{')) return false;
  try {
    return (JSON.parse(line) as { msg?: unknown }).msg === 'Berth is listening';
  } catch {
    return false;
  }
};

/** Variables a developer's shell may carry that would point the server somewhere other than a fresh embedded database. */
const INHERITED_BERTH_VARIABLES = [
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

function serverEnvironment(port: number, dataDir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of INHERITED_BERTH_VARIABLES) delete env[name];
  // The billing pass (renewals, dunning) would act on the specs' data behind their backs; a spec about it turns it on.
  return {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    BERTH_DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    BILLING_EVERY_MINUTES: '0',
    ...extra,
  };
}

async function startOnce(port: number, options: StartOptions): Promise<BerthServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'berth-e2e-'));
  // The server finds its migrations applied and starts as on any empty database, banner included.
  if (!options.databaseUrl) await copyMigratedPgliteDirectory(dataDir);
  const child = spawn(process.execPath, [mainScript], {
    cwd: repoRoot,
    env: serverEnvironment(port, dataDir, { ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}), ...options.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Should the worker die without running fixture teardown, the server must not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  let output = '';
  let stdout = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const cleanUp = async () => {
    process.off('exit', killOnExit);
    await rm(dataDir, { recursive: true, force: true });
  };

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), options.stopTimeoutMs ?? 15_000);
      await exited;
      clearTimeout(timer);
    }
    await cleanUp();
  };

  try {
    const admin = await new Promise<AdminCredentials>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the server did not say "Berth is listening" within ${options.startTimeoutMs ?? 60_000} ms`)),
        options.startTimeoutMs ?? 60_000,
      );
      let listening = false;
      child.stdout.on('data', (chunk: string) => {
        output += chunk;
        if (listening) return;
        stdout += chunk;
        if (!stdout.split('\n').some(isListeningLine)) return;
        listening = true;
        clearTimeout(timer);
        const credentials = parseAdminBanner(stdout) ?? options.admin;
        if (credentials) resolve(credentials);
        else reject(new Error('the server is listening but printed no first-admin banner (was the database not empty?)'));
      });
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with code ${code} before listening`));
      });
    });
    return { baseURL: `http://127.0.0.1:${port}`, admin, databaseUrl: options.databaseUrl, output: () => output, stop };
  } catch (error) {
    await stop();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Berth failed to start on port ${port}: ${reason}\n--- server output ---\n${output}`, { cause: error });
  }
}

/** Starts `server/src/main.ts` on a free loopback port with a throwaway PGlite directory. */
export async function startBerthServer(options: StartOptions = {}): Promise<BerthServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options.port ?? (await freePort()), options);
    } catch (error) {
      const clash = error instanceof Error && error.message.includes('EADDRINUSE');
      if (!clash || attempt >= 3 || options.port !== undefined) throw error;
    }
  }
}
