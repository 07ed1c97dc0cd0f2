import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { OrderItemsTable, OrdersTable } from '../../db/schema.ts';

export type OrderRow = Selectable<OrdersTable>;
export type OrderItemRow = Selectable<OrderItemsTable>;

export const findOrderByKey = (db: Db, userId: number, key: string) =>
  db.selectFrom('orders').selectAll().where('user_id', '=', userId).where('idempotency_key', '=', key).executeTakeFirst();

/** Claims the idempotency key: a concurrent duplicate waits on the unique index, then fails. */
export const insertOrder = (trx: Db, values: Insertable<OrdersTable>) =>
  trx.insertInto('orders').values(values).returningAll().executeTakeFirstOrThrow();

export const setOrderTotals = (
  trx: Db,
  id: number,
  values: Pick<OrderRow, 'subtotal' | 'discount' | 'net' | 'vat' | 'gross' | 'promo_id' | 'promo_code'>,
) => trx.updateTable('orders').set(values).where('id', '=', id).execute();

export const insertOrderItems = (trx: Db, values: Insertable<OrderItemsTable>[]) =>
  trx.insertInto('order_items').values(values).returningAll().execute();

export const lockOrder = (trx: Db, id: number) => trx.selectFrom('orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();

export const listOrderItems = (db: Db, orderId: number) =>
  db.selectFrom('order_items').selectAll().where('order_id', '=', orderId).orderBy('id').execute();

export const markItemProvisioned = (trx: Db, id: number, now: Date, domainId: number | null) =>
  trx
    .updateTable('order_items')
    .set(domainId === null ? { provisioned_at: now } : { provisioned_at: now, domain_id: domainId })
    .where('id', '=', id)
    .execute();

export const markOrderPaid = (trx: Db, id: number, now: Date) =>
  trx.updateTable('orders').set({ status: 'paid', paid_at: now }).where('id', '=', id).where('status', '=', 'pending').execute();

/** A subscription locked for its renewal (the order's user's own). */
export const lockSubscriptionForRenewal = (trx: Db, id: number, userId: number) =>
  trx.selectFrom('hosting_subscriptions').selectAll().where('id', '=', id).where('user_id', '=', userId).forUpdate().executeTakeFirst();

export const extendSubscription = (trx: Db, id: number, values: { expires_at: Date; order_item_id: number }) =>
  trx.updateTable('hosting_subscriptions').set(values).where('id', '=', id).execute();

export const insertSubscription = (
  trx: Db,
  values: {
    tenant_id: number;
    user_id: number;
    plan_id: number | null;
    title: string;
    order_item_id: number;
    starts_at: Date;
    expires_at: Date;
  },
) => trx.insertInto('hosting_subscriptions').values(values).execute();

/** The partner who earns commission on a tenant's orders: its first host admin. */
export const findPartner = (db: Db, tenantId: number) =>
  db
    .selectFrom('users')
    .select(['id', 'language'])
    .where('tenant_id', '=', tenantId)
    .where('role', '=', 'host_admin')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();

/**
 * Other renewals of the domain or hosting plan still waiting to be paid (an auto-renewal's invoice,
 * modules/billing) are cancelled when it is renewed by `orderId`: the customer paid for the period another way.
 */
export async function cancelOtherPendingRenewals(
  trx: Db,
  renewed: { domainId: number } | { subscriptionId: number },
  orderId: number,
): Promise<void> {
  const pending = trx
    .selectFrom('orders')
    .innerJoin('order_items', 'order_items.order_id', 'orders.id')
    .select('orders.id')
    .where((eb) =>
      'domainId' in renewed
        ? eb.and([eb('order_items.domain_id', '=', renewed.domainId), eb('order_items.kind', '=', 'domain_renew')])
        : eb('order_items.subscription_id', '=', renewed.subscriptionId),
    )
    .where('orders.status', '=', 'pending')
    .where('orders.id', '<>', orderId);
  await trx.updateTable('invoices').set({ status: 'cancelled' }).where('status', '=', 'unpaid').where('order_id', 'in', pending).execute();
  await trx.updateTable('orders').set({ status: 'cancelled' }).where('id', 'in', pending).execute();
}
