import { OPERATOR_TENANT_ID } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import { generatePassword, type PasswordHasher } from '../../lib/password.ts';
import { createUser } from '../users/service.ts';
import { countTenants, insertOperatorTenant, insertTenantHost, lockBootstrap } from './queries.ts';

export interface FirstAdmin {
  email: string;
  /** Set only when the password was generated here and must be shown once. */
  generatedPassword: string | undefined;
}

/**
 * On an empty database: tenant 1 (the operator) and its first super admin, in one transaction
 * under an advisory lock, so two instances starting together create exactly one.
 */
export async function ensureOperator(
  db: Db,
  hasher: PasswordHasher,
  clock: Clock,
  options: { adminEmail: string; adminPassword: string | undefined; publicUrl: string | undefined },
): Promise<FirstAdmin | undefined> {
  return db.transaction().execute(async (trx) => {
    await lockBootstrap(trx);
    if ((await countTenants(trx)) > 0) return undefined;
    await insertOperatorTenant(trx, OPERATOR_TENANT_ID, options.publicUrl ?? null);
    for (const host of ['localhost', '127.0.0.1']) await insertTenantHost(trx, OPERATOR_TENANT_ID, host);
    const password = options.adminPassword ?? generatePassword();
    await createUser(trx, hasher, clock, {
      tenantId: OPERATOR_TENANT_ID,
      email: options.adminEmail,
      password,
      role: 'super_admin',
      given_name: 'Super',
      sn: 'Admin',
    });
    return { email: options.adminEmail, generatedPassword: options.adminPassword ? undefined : password };
  });
}

export function firstAdminBanner(admin: FirstAdmin, url: string): string {
  const line = '='.repeat(64);
  return [
    '',
    line,
    ' Berth: first super admin created',
    `   e-mail:   ${admin.email}`,
    `   password: ${admin.generatedPassword ?? '(the value of BERTH_ADMIN_PASSWORD)'}`,
    ` Log in at ${url}/login`,
    ' This password is shown only once: change it after logging in.',
    line,
    '',
  ].join('\n');
}
