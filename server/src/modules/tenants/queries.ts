import type { Db } from '../../db/connection.ts';

export const findTenantByHost = (db: Db, host: string) =>
  db
    .selectFrom('tenant_hosts')
    .innerJoin('tenants', 'tenants.id', 'tenant_hosts.tenant_id')
    .selectAll('tenants')
    .where('tenant_hosts.host', '=', host)
    .executeTakeFirst();

export const findTenantById = (db: Db, id: number) =>
  db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();

export const listTenantHosts = (db: Db, tenantId: number) =>
  db.selectFrom('tenant_hosts').select('host').where('tenant_id', '=', tenantId).execute();

export const countTenants = async (db: Db): Promise<number> => {
  const row = await db.selectFrom('tenants').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
};

export const insertTenant = (
  db: Db,
  values: { title: string; host_purchases?: string | null; public_url?: string | null },
) => db.insertInto('tenants').values(values).returningAll().executeTakeFirstOrThrow();

export const insertTenantHost = (db: Db, tenantId: number, host: string) =>
  db.insertInto('tenant_hosts').values({ tenant_id: tenantId, host }).onConflict((oc) => oc.doNothing()).execute();
