import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';

/** Days are the tenant's settings (shop_settings; the defaults of migration 0033 where none is stored). */
export const renewDaysOf = (tenant: string) =>
  sql<number>`coalesce((select s.renew_days_before from shop_settings s where s.tenant_id = ${sql.ref(tenant)}), 14)`;
const renewDays = renewDaysOf('domains.tenant_id');
const graceDaysOf = (tenant: string) =>
  sql<number>`coalesce((select s.grace_days from shop_settings s where s.tenant_id = ${sql.ref(tenant)}), 14)`;

/** Whether the domain's tenant sells its TLD: only then can it be renewed in the shop, and so automatically. */
export const renewableInShop = sql<boolean>`exists (select 1 from tld_prices t
  where t.tenant_id = domains.tenant_id and t.active and domains.name like '%.' || t.tld)`;

/** Days before expiry the tenant renews at (shop_settings; 14 where none is stored). */
export const renewDaysOfDomain = renewDays;

/** The day a renewal is for: one order per domain and expiry date (its idempotency key, service.ts). */
export const expiryDay = (expireAt: Date | string): string => new Date(expireAt).toISOString().slice(0, 10);
export const renewalKey = (domainId: number, expireAt: Date | string): string => `auto-renew:domain:${domainId}:${expiryDay(expireAt)}`;

/**
 * Domains to renew now: auto-renewal on, proven, expiring within the tenant's `renew_days_before`
 * and not yet past, a TLD the tenant sells, and no renewal order for this expiry yet (the
 * order's idempotency key, renewalKey).
 */
export const dueRenewals = (db: Db, q: { now: Date; afterId: number; limit: number }) =>
  db
    .selectFrom('domains')
    .select(['domains.id', 'domains.expire_at'])
    .where('domains.auto_renew', '=', true)
    .where('domains.verification_token', 'is', null)
    .where('domains.expire_at', '>', q.now)
    .where(sql<boolean>`domains.expire_at <= ${q.now}::timestamptz + ${renewDays} * interval '1 day'`)
    .where('domains.id', '>', q.afterId)
    .where(renewableInShop)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('orders as o')
            .select('o.id')
            .whereRef('o.user_id', '=', 'domains.owner_id')
            .where(
              'o.idempotency_key',
              '=',
              sql<string>`'auto-renew:domain:' || domains.id || ':' || to_char(domains.expire_at at time zone 'UTC', 'YYYY-MM-DD')`,
            ),
        ),
      ),
    )
    .orderBy('domains.id')
    .limit(q.limit)
    .execute();

export const planRenewalKey = (subscriptionId: number, expiresAt: Date | string): string =>
  `auto-renew:hosting:${subscriptionId}:${expiryDay(expiresAt)}`;

/** The months a plan renews for: those of the payment that runs now (its order line), else a year. */
const planPeriod = sql<number>`coalesce((select i.period_months from order_items i where i.id = s.order_item_id), 12)`;

/**
 * Hosting plans to renew now: auto-renewal on, a plan that still exists, ending within the tenant's
 * `renew_days_before` and not yet ended, and no renewal order for this end date yet (planRenewalKey).
 */
export const dueSubscriptionRenewals = (db: Db, q: { now: Date; afterId: number; limit: number }) =>
  db
    .selectFrom('hosting_subscriptions as s')
    .select(['s.id', 's.expires_at'])
    .where('s.auto_renew', '=', true)
    .where('s.plan_id', 'is not', null)
    .where('s.expires_at', '>', q.now)
    .where(sql<boolean>`s.expires_at <= ${q.now}::timestamptz + ${renewDaysOf('s.tenant_id')} * interval '1 day'`)
    .where('s.id', '>', q.afterId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('orders as o')
            .select('o.id')
            .whereRef('o.user_id', '=', 's.user_id')
            .where(
              'o.idempotency_key',
              '=',
              sql<string>`'auto-renew:hosting:' || s.id || ':' || to_char(s.expires_at at time zone 'UTC', 'YYYY-MM-DD')`,
            ),
        ),
      ),
    )
    .orderBy('s.id')
    .limit(q.limit)
    .execute();

/**
 * Hosting plans ending in (after, until] that have not had this reminder for this end date: those
 * not renewed automatically, and auto-renewed ones only once their renewal date has passed
 * (their renewal did not go through).
 */
export const plansDueForReminder = (db: Db, q: { after: Date; until: Date; daysBefore: number; limit: number }) =>
  db
    .selectFrom('hosting_subscriptions as s')
    .select(['s.id', 's.user_id', 's.title', 's.expires_at'])
    .where('s.expires_at', '>', q.after)
    .where('s.expires_at', '<=', q.until)
    .where((eb) =>
      eb.or([
        eb('s.auto_renew', '=', false),
        eb('s.plan_id', 'is', null),
        eb(sql<number>`${q.daysBefore}::integer`, '<', renewDaysOf('s.tenant_id')),
      ]),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('subscription_expiry_reminders as r')
            .select('r.subscription_id')
            .whereRef('r.subscription_id', '=', 's.id')
            .where('r.days_before', '=', q.daysBefore)
            .whereRef('r.expires_at', '=', 's.expires_at'),
        ),
      ),
    )
    .orderBy('s.id')
    .limit(q.limit)
    .execute();

/** True for the one caller that records this reminder of a plan. */
export const claimPlanReminder = async (
  db: Db,
  values: { subscription_id: number; days_before: number; expires_at: Date; sent_at: Date },
): Promise<boolean> =>
  (
    await db
      .insertInto('subscription_expiry_reminders')
      .values(values)
      .onConflict((oc) => oc.doNothing())
      .returning('subscription_id')
      .execute()
  ).length === 1;

export const findSubscriptionForRenewal = (db: Db, id: number) =>
  db
    .selectFrom('hosting_subscriptions as s')
    .select(['s.id', 's.user_id', 's.plan_id', 's.title', 's.expires_at', 's.auto_renew', planPeriod.as('period_months')])
    .where('s.id', '=', id)
    .executeTakeFirst();

export const findDomainForRenewal = (db: Db, id: number) =>
  db
    .selectFrom('domains')
    .select(['id', 'name', 'owner_id', 'tenant_id', 'expire_at', 'auto_renew'])
    .where('id', '=', id)
    .executeTakeFirst();

/** Unpaid invoices with a due date (renewals'), issued at least a day before `now`, with their owner. */
export const unpaidDueInvoices = (db: Db, q: { now: Date; afterId: number; limit: number }) =>
  db
    .selectFrom('invoices')
    .innerJoin('users as owner', 'owner.id', 'invoices.user_id')
    .select([
      'invoices.id',
      'invoices.tenant_id',
      'invoices.user_id',
      'invoices.number',
      'invoices.gross',
      'invoices.currency',
      'invoices.issued_at',
      'invoices.due_at',
      graceDaysOf('invoices.tenant_id').as('grace_days'),
      sql<number>`(select max(n.step) from dunning_notices n where n.invoice_id = invoices.id)`.as('last_step'),
    ])
    .where('invoices.status', '=', 'unpaid')
    .where('invoices.due_at', 'is not', null)
    .where('invoices.issued_at', '<=', new Date(q.now.getTime() - 24 * 60 * 60 * 1000))
    .where('invoices.id', '>', q.afterId)
    .orderBy('invoices.id')
    .limit(q.limit)
    .execute();

export type UnpaidDueInvoice = Awaited<ReturnType<typeof unpaidDueInvoices>>[number];

/** True for the one caller that records this dunning step of the invoice. */
export const claimDunningStep = async (db: Db, invoiceId: number, step: number, now: Date): Promise<boolean> =>
  (
    await db
      .insertInto('dunning_notices')
      .values({ invoice_id: invoiceId, step, sent_at: now })
      .onConflict((oc) => oc.doNothing())
      .returning('invoice_id')
      .execute()
  ).length === 1;

/** Claims telling the owner how a saved-card charge of an invoice went (one attempt per dunning step). */
export const claimCardNotice = async (db: Db, invoiceId: number, step: number, now: Date): Promise<boolean> =>
  (
    await db
      .updateTable('card_charges')
      .set({ told_at: now })
      .where('invoice_id', '=', invoiceId)
      .where('step', '=', step)
      .where('status', '!=', 'pending')
      .where('told_at', 'is', null)
      .returning('invoice_id')
      .execute()
  ).length === 1;

/** Unpaid invoices of `userId` whose grace period has run out at `now` (what a suspension is for). */
export const overdueBeyondGrace = (db: Db, userId: number, now: Date) =>
  db
    .selectFrom('invoices')
    .select(['invoices.id', 'invoices.number', 'invoices.gross', 'invoices.currency', 'invoices.due_at'])
    .where('invoices.user_id', '=', userId)
    .where('invoices.status', '=', 'unpaid')
    .where('invoices.due_at', 'is not', null)
    .where(sql<boolean>`invoices.due_at + ${graceDaysOf('invoices.tenant_id')} * interval '1 day' <= ${now}`)
    .orderBy('invoices.id')
    .execute();

/** Users not suspended yet who have an unpaid invoice past its grace period. */
export const dueSuspensions = (db: Db, q: { now: Date; limit: number }) =>
  db
    .selectFrom('users')
    .select(['users.id', 'users.tenant_id'])
    .where('users.suspended_at', 'is', null)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('invoices')
          .select('invoices.id')
          .whereRef('invoices.user_id', '=', 'users.id')
          .where('invoices.status', '=', 'unpaid')
          .where('invoices.due_at', 'is not', null)
          .where(sql<boolean>`invoices.due_at + ${graceDaysOf('invoices.tenant_id')} * interval '1 day' <= ${q.now}`),
      ),
    )
    .orderBy('users.id')
    .limit(q.limit)
    .execute();

/** Sets the suspension once: answers the user when this call suspended them. */
export const suspendUser = (db: Db, userId: number, now: Date) =>
  db
    .updateTable('users')
    .set({ suspended_at: now })
    .where('id', '=', userId)
    .where('suspended_at', 'is', null)
    .returning(['id', 'tenant_id', 'email', 'given_name', 'sn', 'language'])
    .executeTakeFirst();

export const liftUserSuspension = (db: Db, userId: number) =>
  db
    .updateTable('users')
    .set({ suspended_at: null })
    .where('id', '=', userId)
    .where('suspended_at', 'is not', null)
    .returning(['id', 'tenant_id', 'email', 'language'])
    .executeTakeFirst();

const expiredColumns = [
  'domains.id',
  'domains.name',
  'domains.tenant_id',
  'domains.owner_id',
  'domains.expire_at',
  graceDaysOf('domains.tenant_id').as('grace_days'),
] as const;

/** Expired domains still in their grace period whose owner was not told of this expiry yet (a reminder row "0 days before"). */
export const expiredUntold = (db: Db, q: { now: Date; limit: number }) =>
  db
    .selectFrom('domains')
    .select([...expiredColumns])
    .where('domains.expire_at', '<=', q.now)
    .where('domains.lapsed_at', 'is', null)
    .where('domains.verification_token', 'is', null)
    .where(sql<boolean>`domains.expire_at + ${graceDaysOf('domains.tenant_id')} * interval '1 day' > ${q.now}`)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('domain_expiry_reminders as r')
            .select('r.domain_id')
            .whereRef('r.domain_id', '=', 'domains.id')
            .where('r.days_before', '=', 0)
            .whereRef('r.expire_at', '=', 'domains.expire_at'),
        ),
      ),
    )
    .orderBy('domains.id')
    .limit(q.limit)
    .execute();

export type ExpiredDomain = Awaited<ReturnType<typeof expiredUntold>>[number];

/** Expired domains past the tenant's grace period that are still served. */
export const dueLapses = (db: Db, q: { now: Date; limit: number }) =>
  db
    .selectFrom('domains')
    .select([...expiredColumns])
    .where('domains.lapsed_at', 'is', null)
    .where('domains.expire_at', 'is not', null)
    .where(sql<boolean>`domains.expire_at + ${graceDaysOf('domains.tenant_id')} * interval '1 day' <= ${q.now}`)
    .orderBy('domains.id')
    .limit(q.limit)
    .execute();

/** Marks a domain no longer served, once: answers it when this call did. */
export const lapseDomain = (db: Db, id: number, now: Date) =>
  db.updateTable('domains').set({ lapsed_at: now }).where('id', '=', id).where('lapsed_at', 'is', null).returning('id').executeTakeFirst();

/** The viewer's own unpaid invoices that have a due date, oldest first (dashboard, services page). */
export const unpaidRenewalsOf = (db: Db, userId: number) =>
  db
    .selectFrom('invoices')
    .select(['id', 'number', 'gross', 'currency', 'due_at', 'issued_at'])
    .where('user_id', '=', userId)
    .where('status', '=', 'unpaid')
    .where('due_at', 'is not', null)
    .orderBy('due_at')
    .orderBy('id')
    .limit(20)
    .execute();

/** What a renewal's invoice renews: the domain's name (or the item's title), from its order. */
export const renewedItemOf = async (db: Db, invoiceId: number): Promise<string> => {
  const row = await db
    .selectFrom('invoices')
    .innerJoin('order_items', 'order_items.order_id', 'invoices.order_id')
    .select(['order_items.domain_name', 'order_items.title'])
    .where('invoices.id', '=', invoiceId)
    .orderBy('order_items.id')
    .limit(1)
    .executeTakeFirst();
  return row?.domain_name ?? row?.title ?? '';
};
