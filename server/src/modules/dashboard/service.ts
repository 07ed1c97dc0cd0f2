import type { Dashboard } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import { presentListItem } from '../domains/present.ts';
import { listDomainPage } from '../domains/queries.ts';
import type { UserRow } from '../users/queries.ts';
import type { Billing } from '../billing/service.ts';
import { formatMoney } from '../shop/money.ts';
import { ensureShop } from '../shop/queries.ts';
import { countCartItems, countCustomers, countUnreadNotifications, domainCounts, type DashboardScope } from './queries.ts';

const DAY = 24 * 60 * 60 * 1000;
export const EXPIRING_WITHIN_DAYS = 30;
const EXPIRING_SOON_SHOWN = 5;

/** The numbers a user looks at first: their own for customers, the tenant's for host admins, all for super admins. */
export class DashboardService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly billing: Pick<Billing, 'stateOf'>;

  constructor(db: Db, clock: Clock, billing: Pick<Billing, 'stateOf'>) {
    this.db = db;
    this.clock = clock;
    this.billing = billing;
  }

  /** `credit`: the viewer's balance as read with their session; shown where the policy lets them see their credit. */
  async for(viewer: UserRow, credit: { balance: number; currency: string | null } | null): Promise<Dashboard> {
    const now = this.clock.now();
    const soon = new Date(now.getTime() + EXPIRING_WITHIN_DAYS * DAY);
    const scope: DashboardScope =
      viewer.role === 'customer'
        ? { tenantId: null, ownerId: viewer.id }
        : { tenantId: viewer.role === 'host_admin' ? viewer.tenant_id : null, ownerId: null };
    const [counts, customers, cart, unread, next, billing] = await Promise.all([
      domainCounts(this.db, scope, now, soon),
      viewer.role === 'customer' ? Promise.resolve(null) : countCustomers(this.db, scope.tenantId),
      countCartItems(this.db, viewer.id),
      countUnreadNotifications(this.db, viewer.id),
      // The expiry index walked from now: the next domains to expire.
      listDomainPage(this.db, {
        ...scope,
        sort: 'expire_at',
        descending: false,
        after: [now.toISOString(), 0],
        limit: EXPIRING_SOON_SHOWN,
      }),
      this.billing.stateOf(viewer),
    ]);
    return {
      scope: viewer.role === 'customer' ? 'own' : viewer.role === 'host_admin' ? 'tenant' : 'all',
      domains: counts.domains,
      domains_expiring_30d: counts.expiring,
      domains_expired: counts.expired,
      domain_users: counts.users,
      customers,
      cart_items: cart,
      credit: credit && {
        amount: credit.balance,
        formatted: formatMoney(credit.balance, credit.currency ?? (await ensureShop(this.db, viewer.tenant_id)).currency, viewer.language),
      },
      notifications_unread: unread,
      billing,
      expiring_soon: next
        .filter((row) => row.expire_at !== null && new Date(row.expire_at) <= soon)
        .map((row) => presentListItem(row, now)),
    };
  }
}
