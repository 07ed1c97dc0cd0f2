import type { Db } from '../../db/connection.ts';
import { domainExpiryKey } from '../domains/queries.ts';

/** Null fields: no limit. A customer's scope is their own domains, a host admin's their tenant. */
export interface DashboardScope {
  tenantId: number | null;
  ownerId: number | null;
}

const scoped = (db: Db, scope: DashboardScope) => {
  let query = db.selectFrom('domains');
  if (scope.tenantId !== null) query = query.where('domains.tenant_id', '=', scope.tenantId);
  if (scope.ownerId !== null) query = query.where('domains.owner_id', '=', scope.ownerId);
  return query;
};

const count = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }> }): Promise<number> =>
  Number((await query.executeTakeFirstOrThrow()).n);

export async function domainCounts(db: Db, scope: DashboardScope, now: Date, soon: Date) {
  const [domains, expiring, expired, users] = await Promise.all([
    count(scoped(db, scope).select((eb) => eb.fn.countAll<number>().as('n'))),
    count(
      scoped(db, scope)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(domainExpiryKey, '>', now)
        .where(domainExpiryKey, '<=', soon),
    ),
    count(
      scoped(db, scope)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(domainExpiryKey, '<=', now),
    ),
    count(
      scoped(db, scope)
        .innerJoin('domain_users', 'domain_users.domain_id', 'domains.id')
        .select((eb) => eb.fn.countAll<number>().as('n')),
    ),
  ]);
  return { domains, expiring, expired, users };
}

export const countCustomers = (db: Db, tenantId: number | null) => {
  let query = db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'customer');
  if (tenantId !== null) query = query.where('tenant_id', '=', tenantId);
  return count(query);
};

export const countCartItems = (db: Db, userId: number) =>
  count(
    db
      .selectFrom('cart_items')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId),
  );

export const countUnreadNotifications = (db: Db, userId: number) =>
  count(
    db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null),
  );
