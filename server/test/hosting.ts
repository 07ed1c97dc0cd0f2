import { sql } from 'kysely';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { insertTenant, insertTenantHost, listTenantHosts } from '../src/modules/tenants/queries.ts';
import { createUser } from '../src/modules/users/service.ts';
import type { UserRow } from '../src/modules/users/queries.ts';
import type { TestApp } from './harness.ts';
import { insertDomainUser } from '../src/modules/domain-users/queries.ts';

export const PASSWORD = 'a long enough passphrase 2026';

/** A session cookie for a user, made directly (fixtures do not go through the login screen). */
export async function sessionFor(t: TestApp, user: Pick<UserRow, 'id' | 'tenant_id'>, remember = true): Promise<string> {
  const { token } = await t.services.sessions.create({
    userId: user.id,
    tenantId: user.tenant_id,
    remember,
    ip: '127.0.0.1',
    userAgent: 'vitest',
  });
  return `berth_session=${token}`;
}

export type Caller = (options: InjectOptions) => Promise<LightMyRequestResponse>;

/** Requests as a signed-in user, on `host` (a session is valid on its own tenant's hosts only). */
export const callerWith =
  (t: TestApp, cookie: string, host?: string): Caller =>
  (options) =>
    t.app.inject({ ...options, headers: { ...(host ? { host } : {}), ...options.headers, cookie } });

/** The first host name of a tenant: where its users' browsers reach the panel. */
export async function hostOf(t: TestApp, tenantId: number): Promise<string> {
  const hosts = await listTenantHosts(t.db, tenantId);
  return hosts[0]?.host ?? 'localhost';
}

export async function addTenant(t: TestApp, title: string, host: string, nameServers: string[] = []): Promise<number> {
  const tenant = await insertTenant(t.db, { title });
  await insertTenantHost(t.db, tenant.id, host);
  if (nameServers.length) {
    await t.db
      .updateTable('tenants')
      .set({ name_servers: sql`${JSON.stringify(nameServers)}::jsonb` as unknown as string[] })
      .where('id', '=', tenant.id)
      .execute();
  }
  return tenant.id;
}

export async function addUser(
  t: TestApp,
  tenantId: number,
  email: string,
  role: UserRow['role'] = 'customer',
  names: [string, string] = ['Test', 'User'],
) {
  const user = await createUser(t.db, t.services.hasher, t.clock, {
    tenantId,
    email,
    password: PASSWORD,
    role,
    given_name: names[0],
    sn: names[1],
  });
  return { user, call: callerWith(t, await sessionFor(t, user), await hostOf(t, tenantId)) };
}

/** The super admin the harness creates, as a caller. */
export async function superAdmin(t: TestApp) {
  const user = await t.db.selectFrom('users').selectAll().where('role', '=', 'super_admin').executeTakeFirstOrThrow();
  return { user, call: await callerFor(t, user) };
}

/** A new session of `user`, calling on their tenant's host. */
export async function callerFor(t: TestApp, user: Pick<UserRow, 'id' | 'tenant_id'>, remember = true): Promise<Caller> {
  return callerWith(t, await sessionFor(t, user, remember), await hostOf(t, user.tenant_id));
}

/** A customer's domain with one mailbox/FTP user, as the domain-user password tests need. */
export async function addDomainWithUser(t: TestApp, ownerId: number, uid: string, password: string) {
  const domain = await t.db
    .insertInto('domains')
    .values({ tenant_id: 1, owner_id: ownerId, name: uid.split('@')[1] ?? 'example.com', expire_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertDomainUser(t.db, { tenant_id: 1, domain_id: domain.id, uid, password_hash: await t.services.hasher.hash(password) });
  return domain.id;
}
