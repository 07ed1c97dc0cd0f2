import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { roleSchema } from '@berth/contracts';
import type { Config } from './config.ts';
import type { DbHandle } from './db/connection.ts';
import type { AdminAnswer, AdminRequest } from './db/data-dir-lock.ts';
import type { Clock } from './lib/clock.ts';
import { generatePassword, type PasswordHasher } from './lib/password.ts';
import { loadDemoData } from './modules/demo/service.ts';
import { deleteUserSessions } from './modules/sessions/queries.ts';
import { findUserByTenantEmail } from './modules/users/queries.ts';
import { createUser, setPassword } from './modules/users/service.ts';

const run = promisify(execFile);

export interface AdminDeps {
  handle: DbHandle;
  hasher: PasswordHasher;
  clock: Clock;
  config: Config;
}

/** The commands of `npm run cli` that change data: run by the CLI itself, or by the server that holds the embedded database. */
export const DATA_COMMANDS = ['create-user', 'reset-password', 'demo', 'backup'] as const;

/**
 * Runs one admin command against an open database and answers what to print. The CLI calls it
 * directly, or, when a server holds the embedded database, through that server (data-dir-lock.ts).
 */
export async function runAdminCommand(
  { handle, hasher, clock, config }: AdminDeps,
  { command, values }: AdminRequest,
): Promise<AdminAnswer> {
  const db = handle.db;
  const tenantId = Number(values.tenant ?? '1');
  const lines: string[] = [];

  if (command === 'create-user') {
    if (!values.email || !values.role) throw new Error('create-user needs --email and --role.');
    const role = roleSchema.parse(values.role);
    const password = values.password ?? generatePassword();
    const user = await createUser(db, hasher, clock, {
      tenantId,
      email: values.email,
      password,
      role,
      given_name: values['given-name'] ?? '',
      sn: values.surname ?? '',
    });
    lines.push(`Created ${role} #${user.id} ${user.email} in tenant ${tenantId}.`);
    if (!values.password) lines.push(`Password (shown once): ${password}`);
  } else if (command === 'reset-password') {
    if (!values.email) throw new Error('reset-password needs --email.');
    const user = await findUserByTenantEmail(db, tenantId, values.email);
    if (!user) throw new Error(`No user ${values.email} in tenant ${tenantId}.`);
    const password = values.password ?? generatePassword();
    await setPassword(db, hasher, clock, user.id, password);
    await deleteUserSessions(db, user.id);
    lines.push(`Password of ${user.email} reset; all their sessions ended.`);
    if (!values.password) lines.push(`New password (shown once): ${password}`);
  } else if (command === 'demo') {
    const summary = await loadDemoData(db, hasher, clock, { password: values.password, port: config.PORT });
    if (!summary) {
      lines.push('Demo data is already loaded (tenant harbor.localhost exists).');
    } else {
      lines.push(
        `Demo tenant #${summary.tenantId} "Harbor Hosting" at http://${summary.host}:${config.PORT}`,
        `  host admin: ${summary.hostAdmin}`,
        `  customers:  ${summary.customers.join(', ')}`,
        `  password of all demo users: ${values.password ? '(as given)' : summary.password}`,
        `  domains:    ${summary.domains} (${summary.expired} expired)`,
        `Reseller tenant #${summary.reseller.tenantId} "Anchor Web Reseller" at http://${summary.reseller.host}:${config.PORT} (buys through Berth: partner credit, promo codes)`,
        `  host admin: ${summary.reseller.hostAdmin}`,
        `  customers:  ${summary.reseller.customers.join(', ')}`,
      );
    }
  } else if (command === 'backup') {
    const file = values.file;
    if (!file) throw new Error('backup needs a file name.');
    if (handle.kind === 'pglite') {
      // A consistent snapshot: PGlite runs one statement at a time, so the dump sees one state.
      await writeFile(file, Buffer.from(await (await handle.dumpDataDir()).arrayBuffer()));
    } else {
      await run('pg_dump', ['--format=custom', '--no-owner', '--file', file, '--dbname', config.DATABASE_URL!]);
    }
    lines.push(`Backup written to ${file} (${handle.kind === 'pglite' ? 'embedded data directory, gzip tar' : 'pg_dump custom format'}).`);
  } else {
    return { output: `Unknown command ${command}.\n`, code: 64 };
  }
  return { output: `${lines.join('\n')}\n`, code: 0 };
}
