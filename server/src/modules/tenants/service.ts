import type { Tenant } from '@berth/contracts';
import { OPERATOR_TENANT_ID } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import { siteContext } from '../../lib/password-policy.ts';
import { findTenantByHost, findTenantById, listTenantHosts } from './queries.ts';

export interface ResolvedTenant extends Tenant {
  hosts: string[];
  default_language: string;
  public_url: string | null;
  /** Who must have a second factor on this tenant's host (http/context.ts twoFactorSetupRequired). */
  two_factor_policy: { customers: boolean; admins: boolean };
}

type TenantRow = NonNullable<Awaited<ReturnType<typeof findTenantById>>>;

const present = (row: TenantRow, hosts: string[], adminsRequired: boolean): ResolvedTenant => ({
  id: row.id,
  title: row.title,
  config: {
    admin_logo: row.admin_logo,
    admin_logo_footer: row.admin_logo_footer,
    host_purchases: row.host_purchases,
  },
  hosts,
  default_language: row.default_language,
  public_url: row.public_url,
  two_factor_policy: { customers: row.require_2fa_customers, admins: adminsRequired },
});

export const toPublicTenant = (tenant: ResolvedTenant): Tenant => ({
  id: tenant.id,
  title: tenant.title,
  config: tenant.config,
});

/** The realtime hub's change topic for tenants and their hosts: every instance drops its cache. */
/** The words of a tenant a password must not be built on (lib/password-policy.ts siteContext): its title and hosts. */
export async function tenantPasswordContext(db: Db, tenantId: number): Promise<string[]> {
  const [tenant, hosts] = await Promise.all([findTenantById(db, tenantId), listTenantHosts(db, tenantId)]);
  return siteContext({ title: tenant?.title ?? '', hosts: hosts.map((row) => row.host) });
}

export const TENANTS_CHANGED = 'tenants';

/**
 * The panel is reached at the tenant's own host name; unknown hosts belong to the operator.
 * Every request needs this, so answers are kept per host: dropped on every instance when a tenant
 * changes (TENANTS_CHANGED), and after a few seconds in any case (a change missed while Redis was away).
 */
export class TenantResolver {
  private readonly cache = new Map<string, { tenant: ResolvedTenant; until: number }>();
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly ttlMs: number;

  constructor(db: Db, clock: Clock, ttlMs = 10_000) {
    this.db = db;
    this.clock = clock;
    this.ttlMs = ttlMs;
  }

  async forHost(hostHeader: string | undefined): Promise<ResolvedTenant> {
    const host = (hostHeader ?? '').toLowerCase().replace(/:\d+$/, '');
    const now = this.clock.now().getTime();
    const cached = this.cache.get(host);
    if (cached && cached.until > now) return cached.tenant;
    const row = (await findTenantByHost(this.db, host)) ?? (await findTenantById(this.db, OPERATOR_TENANT_ID));
    if (!row) throw new Error('The operator tenant is missing: run the migrations and bootstrap first.');
    const tenant = await this.resolve(row);
    this.cache.set(host, { tenant, until: now + this.ttlMs });
    return tenant;
  }

  async byId(id: number): Promise<ResolvedTenant | undefined> {
    const row = await findTenantById(this.db, id);
    return row ? this.resolve(row) : undefined;
  }

  private async resolve(row: TenantRow): Promise<ResolvedTenant> {
    const hosts = (await listTenantHosts(this.db, row.id)).map((h) => h.host);
    // "For all admins" is the operator's setting, whichever tenant's host an admin signs in on.
    const operator = row.id === OPERATOR_TENANT_ID ? row : await findTenantById(this.db, OPERATOR_TENANT_ID);
    return present(row, hosts, operator?.require_2fa_admins ?? false);
  }

  clear(): void {
    this.cache.clear();
  }
}
