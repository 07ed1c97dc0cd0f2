import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { HostingPlansTable, ShopSettingsTable, TldPricesTable } from '../../db/schema.ts';
import { DEFAULT_PLANS, DEFAULT_TLDS } from './defaults.ts';

export type ShopSettingsRow = Selectable<ShopSettingsTable>;
export type HostingPlanRow = Selectable<HostingPlansTable>;
export type TldPriceRow = Selectable<TldPricesTable>;

/**
 * A tenant's shop settings, creating them with the default catalogue the first time (a new tenant,
 * tenant 1 after the migration). The settings insert is the guard: concurrent first uses seed once.
 */
export async function ensureShop(db: Db, tenantId: number): Promise<ShopSettingsRow> {
  const existing = await db.selectFrom('shop_settings').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst();
  if (existing) return existing;
  const seed = async (trx: Db): Promise<ShopSettingsRow> => {
    const inserted = await trx
      .insertInto('shop_settings')
      .values({ tenant_id: tenantId })
      .onConflict((oc) => oc.column('tenant_id').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) {
      await trx
        .insertInto('hosting_plans')
        .values(DEFAULT_PLANS.map((plan) => ({ ...plan, tenant_id: tenantId })))
        .execute();
      await trx
        .insertInto('tld_prices')
        .values(DEFAULT_TLDS.map((tld) => ({ ...tld, tenant_id: tenantId })))
        .execute();
      return inserted;
    }
    return trx.selectFrom('shop_settings').selectAll().where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  };
  return db.isTransaction ? seed(db) : db.transaction().execute(seed);
}

export const updateShopSettings = (db: Db, tenantId: number, values: Updateable<ShopSettingsTable>) =>
  db.updateTable('shop_settings').set(values).where('tenant_id', '=', tenantId).returningAll().executeTakeFirstOrThrow();

export const listPlans = (db: Db, tenantId: number, activeOnly: boolean) => {
  let query = db.selectFrom('hosting_plans').selectAll().where('tenant_id', '=', tenantId);
  if (activeOnly) query = query.where('active', '=', true);
  return query.orderBy('monthly_price').orderBy('id').execute();
};

export const findPlan = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('hosting_plans').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

export const insertPlan = (db: Db, values: Insertable<HostingPlansTable>) =>
  db.insertInto('hosting_plans').values(values).returningAll().executeTakeFirstOrThrow();

export const updatePlan = (db: Db, tenantId: number, id: number, values: Updateable<HostingPlansTable>) =>
  db.updateTable('hosting_plans').set(values).where('tenant_id', '=', tenantId).where('id', '=', id).returningAll().executeTakeFirst();

export const deletePlan = (db: Db, tenantId: number, id: number) =>
  db.deleteFrom('hosting_plans').where('tenant_id', '=', tenantId).where('id', '=', id).returningAll().executeTakeFirst();

export const listTlds = (db: Db, tenantId: number, activeOnly: boolean) => {
  let query = db.selectFrom('tld_prices').selectAll().where('tenant_id', '=', tenantId);
  if (activeOnly) query = query.where('active', '=', true);
  return query.orderBy('tld').execute();
};

export const findTld = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('tld_prices').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

export const findTldByName = (db: Db, tenantId: number, tld: string) =>
  db.selectFrom('tld_prices').selectAll().where('tenant_id', '=', tenantId).where('tld', '=', tld).executeTakeFirst();

export const insertTld = (db: Db, values: Insertable<TldPricesTable>) =>
  db.insertInto('tld_prices').values(values).returningAll().executeTakeFirstOrThrow();

export const updateTld = (db: Db, tenantId: number, id: number, values: Updateable<TldPricesTable>) =>
  db.updateTable('tld_prices').set(values).where('tenant_id', '=', tenantId).where('id', '=', id).returningAll().executeTakeFirst();

export const deleteTld = (db: Db, tenantId: number, id: number) =>
  db.deleteFrom('tld_prices').where('tenant_id', '=', tenantId).where('id', '=', id).returningAll().executeTakeFirst();

export const listSubscriptions = (db: Db, userId: number) =>
  db.selectFrom('hosting_subscriptions').selectAll().where('user_id', '=', userId).orderBy('id', 'desc').execute();

/** The user's unpaid invoices that renew one of their plans, by the plan they renew. */
export const unpaidPlanRenewals = (db: Db, userId: number) =>
  db
    .selectFrom('invoices as i')
    .innerJoin('order_items as oi', 'oi.order_id', 'i.order_id')
    .select(['oi.subscription_id', 'i.id', 'i.number', 'i.gross', 'i.currency', 'i.due_at'])
    .where('i.user_id', '=', userId)
    .where('i.status', '=', 'unpaid')
    .where('oi.subscription_id', 'is not', null)
    .orderBy('i.id')
    .execute();

/** Whether amounts in the tenant's currency exist (an invoice or a credit account). */
export const tenantHasMoney = async (db: Db, tenantId: number): Promise<boolean> => {
  const [invoice, account] = await Promise.all([
    db.selectFrom('invoices').select('id').where('tenant_id', '=', tenantId).limit(1).executeTakeFirst(),
    db.selectFrom('credit_accounts').select('user_id').where('tenant_id', '=', tenantId).limit(1).executeTakeFirst(),
  ]);
  return invoice !== undefined || account !== undefined;
};

/** Every plan the user has bought, with its period and what it includes (null: the plan was deleted since). */
export const planLimitsOf = (db: Db, userId: number) =>
  db
    .selectFrom('hosting_subscriptions as s')
    .leftJoin('hosting_plans as p', 'p.id', 's.plan_id')
    .select(['s.id', 's.starts_at', 's.expires_at', 'p.id as plan_id', 'p.max_domains', 'p.max_mailboxes', 'p.disk_gb'])
    .where('s.user_id', '=', userId)
    .execute();

/** Serialises the plan checks of one customer: the row stays locked until the transaction ends. */
export const lockPlanHolder = (db: Db, userId: number) =>
  db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();

/**
 * What a customer uses of their plans: domains owned, mailboxes on them, and disk: the mailboxes'
 * quotas with what their websites hold as the web servers last measured it (migration 0030).
 */
export async function planUsage(db: Db, userId: number): Promise<{ domains: number; mailboxes: number; disk_mb: number }> {
  const [domains, mailboxes, sites] = await Promise.all([
    db
      .selectFrom('domains')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('owner_id', '=', userId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('domain_users as u')
      .innerJoin('domains as d', 'd.id', 'u.domain_id')
      .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.coalesce(eb.fn.sum<string>('u.quota_mb'), eb.lit(0)).as('quota')])
      .where('d.owner_id', '=', userId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('web.site_status as s')
      .innerJoin('domains as d', 'd.id', 's.site_id')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<string>('s.disk_bytes'), eb.lit(0)).as('bytes'))
      .where('d.owner_id', '=', userId)
      .executeTakeFirstOrThrow(),
  ]);
  const siteMb = Math.ceil(Number(sites.bytes) / (1024 * 1024));
  return { domains: Number(domains.count), mailboxes: Number(mailboxes.count), disk_mb: Number(mailboxes.quota) + siteMb };
}

export const findSubscription = (db: Db, id: number, userId: number) =>
  db.selectFrom('hosting_subscriptions').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();

/** The owner's switch for a plan's automatic renewal. */
export const setSubscriptionAutoRenew = (db: Db, id: number, userId: number, autoRenew: boolean) =>
  db
    .updateTable('hosting_subscriptions')
    .set({ auto_renew: autoRenew })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();

/** The user's subscription, locked until the transaction ends (a cancellation runs once). */
export const lockSubscription = (db: Db, id: number, userId: number) =>
  db.selectFrom('hosting_subscriptions').selectAll().where('id', '=', id).where('user_id', '=', userId).forUpdate().executeTakeFirst();

/** What the order line of a subscription cost: net, discount, and the order's VAT and currency. */
export const paidForOrderItem = (db: Db, orderItemId: number) =>
  db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select(['i.net', 'i.discount', 'i.period_months', 'o.vat_rate_bp', 'o.currency', 'o.status'])
    .where('i.id', '=', orderItemId)
    .executeTakeFirst();

export const endSubscription = (db: Db, id: number, now: Date) =>
  db.updateTable('hosting_subscriptions').set({ expires_at: now }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
