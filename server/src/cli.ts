import { parseArgs } from 'node:util';
import { roleSchema } from '@berth/contracts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/connection.ts';
import { migrateToLatest } from './db/migrate.ts';
import { systemClock } from './lib/clock.ts';
import { generatePassword, PasswordHasher } from './lib/password.ts';
import { loadDemoData } from './modules/demo/service.ts';
import { deleteUserSessions } from './modules/sessions/queries.ts';
import { ensureOperator, firstAdminBanner } from './modules/tenants/bootstrap.ts';
import { findUserByTenantEmail } from './modules/users/queries.ts';
import { createUser, setPassword } from './modules/users/service.ts';

const HELP = `Berth admin CLI: npm run cli -- <command> [options]

Commands:
  create-user --email <e-mail> --role <super_admin|host_admin|customer>
              [--tenant <id>] [--password <password>] [--given-name <name>] [--surname <name>]
  reset-password --email <e-mail> [--tenant <id>] [--password <password>]
              ends every session of that user
  demo        [--password <password>]  loads a demo tenant (harbor.localhost) with a host admin,
              5 customers and 150 domains (20 expired)
  help

Without --password a random one is generated and printed once.
The database is the one the server uses (DATABASE_URL, else BERTH_DATA_DIR).`;

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
  if (command === 'help' || !['create-user', 'reset-password', 'demo'].includes(command)) {
    process.stdout.write(`${HELP}\n`);
    return command === 'help' ? 0 : 64;
  }

  const config = loadConfig();
  const handle = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.BERTH_DATA_DIR });
  const hasher = new PasswordHasher({ memoryCost: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST });
  const clock = systemClock;
  try {
    await migrateToLatest(handle.db);
    const admin = await ensureOperator(handle.db, hasher, clock, {
      adminEmail: config.BERTH_ADMIN_EMAIL,
      adminPassword: config.BERTH_ADMIN_PASSWORD,
      publicUrl: config.BERTH_PUBLIC_URL,
    });
    if (admin) process.stdout.write(firstAdminBanner(admin, config.BERTH_PUBLIC_URL ?? `http://localhost:${config.PORT}`));
    const tenantId = Number(values.tenant);

    if (command === 'create-user') {
      if (!values.email || !values.role) throw new Error('create-user needs --email and --role.');
      const role = roleSchema.parse(values.role);
      const password = values.password ?? generatePassword();
      const user = await createUser(handle.db, hasher, clock, {
        tenantId,
        email: values.email,
        password,
        role,
        given_name: values['given-name'],
        sn: values.surname,
      });
      process.stdout.write(`Created ${role} #${user.id} ${user.email} in tenant ${tenantId}.\n`);
      if (!values.password) process.stdout.write(`Password (shown once): ${password}\n`);
    }

    if (command === 'reset-password') {
      if (!values.email) throw new Error('reset-password needs --email.');
      const user = await findUserByTenantEmail(handle.db, tenantId, values.email);
      if (!user) throw new Error(`No user ${values.email} in tenant ${tenantId}.`);
      const password = values.password ?? generatePassword();
      await setPassword(handle.db, hasher, clock, user.id, password);
      await deleteUserSessions(handle.db, user.id);
      process.stdout.write(`Password of ${user.email} reset; all their sessions ended.\n`);
      if (!values.password) process.stdout.write(`New password (shown once): ${password}\n`);
    }

    if (command === 'demo') {
      const summary = await loadDemoData(handle.db, hasher, clock, { password: values.password });
      if (!summary) {
        process.stdout.write('Demo data is already loaded (tenant harbor.localhost exists).\n');
      } else {
        process.stdout.write(
          [
            `Demo tenant #${summary.tenantId} "Harbor Hosting" at http://${summary.host}:${config.PORT}`,
            `  host admin: ${summary.hostAdmin}`,
            `  customers:  ${summary.customers.join(', ')}`,
            `  password of all demo users: ${values.password ? '(as given)' : summary.password}`,
            `  domains:    ${summary.domains} (${summary.expired} expired)`,
            '',
          ].join('\n'),
        );
      }
    }
    return 0;
  } finally {
    await handle.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  const text = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Error: ${text}\n`);
  process.exitCode = 1;
}
