import { sql } from 'kysely';
import { OPERATOR_TENANT_ID } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';

export const findTenantByHost = (db: Db, host: string) =>
  db
    .selectFrom('tenant_hosts')
    .innerJoin('tenants', 'tenants.id', 'tenant_hosts.tenant_id')
    .selectAll('tenants')
    .where('tenant_hosts.host', '=', host)
    .executeTakeFirst();

export const findTenantById = (db: Db, id: number) => db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();

export const listTenantHosts = (db: Db, tenantId: number) =>
  db.selectFrom('tenant_hosts').select('host').where('tenant_id', '=', tenantId).execute();

export const countTenants = async (db: Db): Promise<number> => {
  const row = await db
    .selectFrom('tenants')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

export const insertTenant = (db: Db, values: { title: string; host_purchases?: string | null; public_url?: string | null }) =>
  db.insertInto('tenants').values(values).returningAll().executeTakeFirstOrThrow();

export const insertTenantHost = (db: Db, tenantId: number, host: string) =>
  db
    .insertInto('tenant_hosts')
    .values({ tenant_id: tenantId, host })
    .onConflict((oc) => oc.doNothing())
    .execute();

/* ---- /system/tenants ---- */

export const listTenantPage = (db: Db, options: { afterId?: number | undefined; limit: number }) => {
  let query = db.selectFrom('tenants').selectAll().orderBy('id').limit(options.limit);
  if (options.afterId !== undefined) query = query.where('id', '>', options.afterId);
  return query.execute();
};

export const listHostsOfTenants = (db: Db, tenantIds: number[]) =>
  tenantIds.length
    ? db.selectFrom('tenant_hosts').select(['tenant_id', 'host']).where('tenant_id', 'in', tenantIds).orderBy('host').execute()
    : Promise.resolve([]);

export const listAdminsOfTenants = (db: Db, tenantIds: number[]) =>
  tenantIds.length
    ? db
        .selectFrom('users')
        .select(['id', 'tenant_id', 'email', 'given_name', 'sn'])
        .where('tenant_id', 'in', tenantIds)
        .where('role', '=', 'host_admin')
        .orderBy('email')
        .execute()
    : Promise.resolve([]);

/** Hosts that already belong to another tenant than `tenantId`. */
export const hostsOwnedElsewhere = (db: Db, hosts: string[], tenantId: number | null) => {
  if (!hosts.length) return Promise.resolve([]);
  let query = db.selectFrom('tenant_hosts').select(['host']).where('host', 'in', hosts);
  if (tenantId !== null) query = query.where('tenant_id', '!=', tenantId);
  return query.execute();
};

export const updateTenant = (
  db: Db,
  id: number,
  values: {
    title?: string;
    host_purchases?: string | null;
    default_language?: string;
    public_url?: string | null;
    name_servers?: string[];
    dns_secondaries?: string[];
    hosting_ipv4?: string | null;
    hosting_ipv6?: string | null;
    admin_logo?: string | null;
    admin_logo_footer?: string | null;
  },
) => {
  const { name_servers, dns_secondaries, ...rest } = values;
  const json = (list: string[]) => sql`${JSON.stringify(list)}::jsonb` as unknown as string[];
  const set = {
    ...rest,
    ...(name_servers ? { name_servers: json(name_servers) } : {}),
    ...(dns_secondaries ? { dns_secondaries: json(dns_secondaries) } : {}),
  };
  return Object.keys(set).length ? db.updateTable('tenants').set(set).where('id', '=', id).execute() : Promise.resolve([]);
};

export async function replaceTenantHosts(db: Db, tenantId: number, hosts: string[]): Promise<void> {
  await db.deleteFrom('tenant_hosts').where('tenant_id', '=', tenantId).where('host', 'not in', hosts).execute();
  for (const host of hosts) await insertTenantHost(db, tenantId, host);
}

export const upsertTenantLogo = (
  db: Db,
  values: { tenant_id: number; kind: 'admin_logo' | 'admin_logo_footer'; image: Buffer; content_type: string; updated_at: Date },
) =>
  db
    .insertInto('tenant_logos')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'kind'])
        .doUpdateSet({ image: values.image, content_type: values.content_type, updated_at: values.updated_at }),
    )
    .execute();

export const findTenantLogo = (db: Db, tenantId: number, kind: 'admin_logo' | 'admin_logo_footer') =>
  db
    .selectFrom('tenant_logos')
    .select(['image', 'content_type', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', kind)
    .executeTakeFirst();

export const deleteTenantLogo = async (db: Db, tenantId: number, kind: 'admin_logo' | 'admin_logo_footer'): Promise<number> => {
  const result = await db.deleteFrom('tenant_logos').where('tenant_id', '=', tenantId).where('kind', '=', kind).executeTakeFirst();
  return Number(result.numDeletedRows);
};

export const setUserRole = (
  db: Db,
  userId: number,
  tenantId: number,
  from: 'customer' | 'host_admin',
  to: 'customer' | 'host_admin',
  now: Date,
) =>
  db
    .updateTable('users')
    .set({ role: to, updated_at: now })
    .where('id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .where('role', '=', from)
    .executeTakeFirst();

/** Serialises first-start bootstrap between instances for the rest of the transaction. */
export const lockBootstrap = (trx: Db) => sql`select pg_advisory_xact_lock(727274)`.execute(trx);

/** Tenant 1 with its fixed id; the sequence then continues after it. */
export const insertOperatorTenant = async (trx: Db, id: number, publicUrl: string | null) => {
  await trx.insertInto('tenants').values({ id, title: 'Berth', public_url: publicUrl }).execute();
  await sql`select setval('tenants_id_seq', (select max(id) from tenants))`.execute(trx);
};

/**
 * The platform's name servers and hosting address (the operator tenant's, every tenant's fallback),
 * each set only where the operator has not set one.
 */
export async function fillPlatformHosting(db: Db, values: { nameServers: string[]; ipv4: string }): Promise<void> {
  await db
    .updateTable('tenants')
    .set({ name_servers: sql`${JSON.stringify(values.nameServers)}::jsonb` as unknown as string[] })
    .where('id', '=', OPERATOR_TENANT_ID)
    .where(sql<boolean>`jsonb_array_length(name_servers) = 0`)
    .execute();
  await db
    .updateTable('tenants')
    .set({ hosting_ipv4: values.ipv4 })
    .where('id', '=', OPERATOR_TENANT_ID)
    .where('hosting_ipv4', 'is', null)
    .where('hosting_ipv6', 'is', null)
    .execute();
}
