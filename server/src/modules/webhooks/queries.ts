import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from '../../db/schema.ts';
import type { Insertable, Updateable } from 'kysely';

export const listEndpoints = (db: Db, tenantId: number) =>
  db.selectFrom('webhook_endpoints').selectAll().where('tenant_id', '=', tenantId).orderBy('id').execute();

export const findEndpoint = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('webhook_endpoints').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

export const findEndpointById = (db: Db, id: number) =>
  db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();

/** Holds the tenant's row until the transaction ends: endpoints are counted and added one request at a time. */
export const lockTenant = (db: Db, tenantId: number) =>
  db.selectFrom('tenants').select('id').where('id', '=', tenantId).forUpdate().executeTakeFirst();

export async function countEndpoints(db: Db, tenantId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export const insertEndpoint = (db: Db, values: Insertable<WebhookEndpointsTable>) =>
  db.insertInto('webhook_endpoints').values(values).returningAll().executeTakeFirstOrThrow();

export const updateEndpoint = (db: Db, tenantId: number, id: number, values: Updateable<WebhookEndpointsTable>) =>
  db.updateTable('webhook_endpoints').set(values).where('tenant_id', '=', tenantId).where('id', '=', id).returningAll().executeTakeFirst();

export const deleteEndpoint = (db: Db, tenantId: number, id: number) =>
  db.deleteFrom('webhook_endpoints').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

/** The tenant's enabled endpoints that take `type`. */
export const subscribedEndpoints = (db: Db, tenantId: number, type: string) =>
  db
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('enabled', '=', true)
    .where(sql<boolean>`${type} = any(events)`)
    .execute();

export const insertDelivery = (db: Db, values: Insertable<WebhookDeliveriesTable>) =>
  db.insertInto('webhook_deliveries').values(values).returning('id').executeTakeFirstOrThrow();

export async function countAttempts(db: Db, endpointId: number, eventId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('endpoint_id', '=', endpointId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export const listDeliveries = (db: Db, endpointId: number, limit: number) =>
  db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).orderBy('id', 'desc').limit(limit).execute();

/** A delivery of one of the tenant's endpoints (replay). */
export const findDelivery = (db: Db, tenantId: number, id: number) =>
  db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select(['d.id', 'd.endpoint_id', 'd.payload'])
    .where('e.tenant_id', '=', tenantId)
    .where('d.id', '=', id)
    .executeTakeFirst();

/* ---- the private ranges the super admin lets webhooks reach ---- */

export const listAllowedRanges = async (db: Db): Promise<string[]> =>
  (await db.selectFrom('webhook_allowed_ranges').select('range').orderBy('range').execute()).map((row) => row.range);

/** Replaces the whole list (the page saves it as one). */
export async function replaceAllowedRanges(db: Db, ranges: string[], now: Date): Promise<void> {
  await db.deleteFrom('webhook_allowed_ranges').execute();
  if (ranges.length)
    await db
      .insertInto('webhook_allowed_ranges')
      .values(ranges.map((range) => ({ range, created_at: now })))
      .execute();
}
