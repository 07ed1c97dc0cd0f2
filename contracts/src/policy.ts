import { z } from 'zod';

/**
 * What a signed-in user may do, by name. The server's policy table
 * (server/src/modules/policy/table.ts) decides each one per role and kind of tenant; GET /api/user
 * answers the signed-in user's list, and the web shows only what is in it.
 */
export const ABILITIES = [
  /** /system/customers: list, create, lock, reset a second factor, log in as. */
  'customers.manage',
  /** /system/audit */
  'audit.view',
  /** /system/security: who must have a second factor. */
  'security.manage',
  /** /system/partner/invoices: the tenant's invoices, confirming bank transfers. */
  'invoices.manage',
  /** /system/partner/catalogue: prices, plans, VAT, top-up limits. */
  'catalogue.manage',
  /** /system/partner/promo: the tenant's promo codes. */
  'promo.manage',
  /** /system/partner/credit as an admin: other users' ledgers and adjustments. */
  'credit.administer',
  /** The user's own credit balance and ledger (dashboard, /system/partner/credit). */
  'credit.own',
  /** The partner credit in the header (docs/product.md §6). */
  'credit.header',
  /** /account/payment-methods (docs/product.md §6). */
  'payment_methods.use',
  /** /system/tenants */
  'tenants.manage',
  /** /system/outbox */
  'outbox.view',
  /** /system/servers: the web servers, and which one serves a site. */
  'servers.manage',
  /** /system/jobs: the durable job queue (waiting, running, failed; retry). */
  'jobs.manage',
  /** /system/webhooks: the tenant's signed outgoing webhooks. */
  'webhooks.manage',
  /** The private ranges every tenant's webhooks may reach (a section of /system/webhooks). */
  'webhooks.allow_ranges',
  /** The API reference at /api/docs, in the menu. */
  'api_docs.view',
] as const;
export const abilitySchema = z.enum(ABILITIES);
export type Ability = z.infer<typeof abilitySchema>;

/**
 * The kinds of tenant the policy tells apart: the operator (tenant 1, Berth's own), a tenant that
 * sells through Berth's shop, and a reseller whose customers buy through its own cart
 * (`host_purchases`).
 */
export const TENANT_KINDS = ['operator', 'selling', 'reseller'] as const;
export type TenantKind = (typeof TENANT_KINDS)[number];
