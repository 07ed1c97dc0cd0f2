import { ABILITIES, OPERATOR_TENANT_ID, TENANT_KINDS, type Ability, type Role, type TenantKind } from '@berth/contracts';

type Kinds = readonly TenantKind[];
const EVERY: Kinds = TENANT_KINDS;
const NONE: Kinds = [];
/** Tenants whose customers buy through their own cart (`host_purchases`). */
const RESELLER: Kinds = ['reseller'];

const admins = { super_admin: EVERY, host_admin: EVERY, customer: NONE } as const;
const superOnly = { super_admin: EVERY, host_admin: NONE, customer: NONE } as const;

/**
 * Who may do what, and on which kind of tenant: the one answer the routes' guards
 * (policy/guard.ts), the navigation (menu/service.ts) and the abilities the web reads
 * (GET /api/user) all take. A role's row lists the kinds of tenant where it may.
 */
export const POLICY: Readonly<Record<Ability, Readonly<Record<Role, Kinds>>>> = {
  'customers.manage': admins,
  'audit.view': admins,
  'security.manage': admins,
  'invoices.manage': admins,
  'catalogue.manage': admins,
  // Every tenant that sells (through Berth's shop, or as a reseller) manages the codes its
  // customers redeem; customers never.
  'promo.manage': admins,
  'credit.administer': admins,
  'credit.own': { super_admin: EVERY, host_admin: EVERY, customer: EVERY },
  // docs/product.md §6: super admins, and everyone on a tenant with host_purchases.
  'credit.header': { super_admin: EVERY, host_admin: RESELLER, customer: RESELLER },
  'payment_methods.use': { super_admin: EVERY, host_admin: RESELLER, customer: RESELLER },
  'tenants.manage': superOnly,
  'outbox.view': superOnly,
  // Servers are the platform's: which one serves a site is the operator's choice, not a tenant's.
  'servers.manage': superOnly,
  'jobs.manage': superOnly,
  // A tenant's automation: its admins (a super admin for the operator tenant).
  'webhooks.manage': admins,
  // Which private addresses webhooks may reach is the platform's security, not a tenant's.
  'webhooks.allow_ranges': superOnly,
  'api_docs.view': admins,
};

/** The kind of a tenant, from what it is configured as. */
export const tenantKind = (tenant: { id: number; host_purchases: string | null }): TenantKind =>
  tenant.id === OPERATOR_TENANT_ID ? 'operator' : tenant.host_purchases !== null ? 'reseller' : 'selling';

export const may = (role: Role, kind: TenantKind, ability: Ability): boolean => POLICY[ability][role].includes(kind);

/** Everything a role may do on a kind of tenant, in the table's order. */
export const abilitiesOf = (role: Role, kind: TenantKind): Ability[] => ABILITIES.filter((ability) => may(role, kind, ability));
