import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { DATA_COMMANDS, runAdminCommand } from './admin-commands.ts';
import { loadConfig, type Config } from './config.ts';
import { openDatabase } from './db/connection.ts';
import { DataDirBusyError, DataDirLock, type AdminAnswer, type AdminRequest } from './db/data-dir-lock.ts';
import { migrateToLatest } from './db/migrate.ts';
import { systemClock } from './lib/clock.ts';
import { PasswordHasher } from './lib/password.ts';
import { ensureOperator, firstAdminBanner } from './modules/tenants/bootstrap.ts';

const run = promisify(execFile);

const HELP = `Berth admin CLI: npm run cli -- <command> [options]

Commands:
  create-user --email <e-mail> --role <super_admin|host_admin|customer>
              [--tenant <id>] [--password <password>] [--given-name <name>] [--surname <name>]
  reset-password --email <e-mail> [--tenant <id>] [--password <password>]
              ends every session of that user
  demo        [--password <password>]  loads a demo tenant (harbor.localhost) with a host admin,
              5 customers and 150 domains (20 expired)
  backup FILE a consistent snapshot of the database while the server runs
              (embedded: a gzip tar of the data directory; PostgreSQL: pg_dump's custom format)
  restore FILE
              embedded: into BERTH_DATA_DIR, which must be empty or missing (server stopped);
              PostgreSQL: pg_restore into DATABASE_URL, which must be an empty database
  help

Without --password a random one is generated and printed once.
The database is the one the server uses (DATABASE_URL, else BERTH_DATA_DIR). While the server
runs on the embedded database, commands go through it (it holds the data directory).`;

const print = (answer: AdminAnswer): number => {
  (answer.code === 0 ? process.stdout : process.stderr).write(answer.output);
  return answer.code;
};

/** Opens the database itself (nobody else holds it) and runs the command. */
async function runHere(config: Config, request: AdminRequest, lock: DataDirLock | undefined): Promise<number> {
  const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.BERTH_DATA_DIR });
  const hasher = new PasswordHasher({ memoryCost: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST });
  try {
    await migrateToLatest(handle.db);
    const admin = await ensureOperator(handle.db, hasher, systemClock, {
      adminEmail: config.BERTH_ADMIN_EMAIL,
      adminPassword: config.BERTH_ADMIN_PASSWORD,
      publicUrl: config.BERTH_PUBLIC_URL,
    });
    if (admin) process.stdout.write(firstAdminBanner(admin, config.BERTH_PUBLIC_URL ?? `http://localhost:${config.PORT}`));
    return print(await runAdminCommand({ handle, hasher, clock: systemClock, config }, request));
  } finally {
    await handle.close();
    await lock?.release();
  }
}

async function restore(config: Config, file: string): Promise<number> {
  if (!existsSync(file)) throw new Error(`No such file: ${file}`);
  if (config.DATABASE_URL) {
    await run('pg_restore', ['--no-owner', '--exit-on-error', '--dbname', config.DATABASE_URL, file]);
    process.stdout.write(`Restored ${file} into the PostgreSQL database.\n`);
    return 0;
  }
  const dataDir = config.BERTH_DATA_DIR;
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(`Restore goes into an empty data directory; ${dataDir} is not empty. Move it aside first.`);
  }
  mkdirSync(dataDir, { recursive: true });
  const lock = await DataDirLock.acquire(dataDir);
  try {
    const handle = await openDatabase({ dataDir, loadDataDir: new Blob([readFileSync(file)]) });
    await migrateToLatest(handle.db);
    await handle.close();
  } finally {
    await lock.release();
  }
  process.stdout.write(`Restored ${file} into ${dataDir}.\n`);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      role: { type: 'string' },
      tenant: { type: 'string', default: '1' },
      password: { type: 'string' },
      'given-name': { type: 'string', default: '' },
      surname: { type: 'string', default: '' },
    },
  });
  const command = positionals[0] ?? 'help';
  const config = loadConfig();
  if (command === 'restore') {
    if (!positionals[1]) throw new Error('restore needs a file name.');
    return restore(config, path.resolve(positionals[1]));
  }
  if (command === 'help' || !(DATA_COMMANDS as readonly string[]).includes(command)) {
    process.stdout.write(`${HELP}\n`);
    return command === 'help' ? 0 : 64;
  }
  const request: AdminRequest = { command, values: { ...values, file: positionals[1] ? path.resolve(positionals[1]) : undefined } };
  if (config.DATABASE_URL) return runHere(config, request, undefined);

  mkdirSync(config.BERTH_DATA_DIR, { recursive: true });
  let lock: DataDirLock;
  try {
    lock = await DataDirLock.acquire(config.BERTH_DATA_DIR);
  } catch (error) {
    if (!(error instanceof DataDirBusyError)) throw error;
    // The server holds the embedded database: it runs the command on it.
    return print(await DataDirLock.send(config.BERTH_DATA_DIR, request));
  }
  return runHere(config, request, lock);
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const text = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Error: ${text}\n`);
  process.exitCode = 1;
}
