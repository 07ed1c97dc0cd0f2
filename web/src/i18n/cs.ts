/** Czech, a chunk of its own loaded when chosen (i18n.ts); `satisfies` fails the build when it misses a key of English. */
import type { Strings } from './en.ts';
import base from './cs.json';
import csDashboard from './areas/dashboard/cs.json';
import csDomains from './areas/domains/cs.json';
import csDomainUsers from './areas/domainUsers/cs.json';
import csDns from './areas/dns/cs.json';
import csCustomers from './areas/customers/cs.json';
import csTenants from './areas/tenants/cs.json';
import csAudit from './areas/audit/cs.json';
import csNotifications from './areas/notifications/cs.json';
import csShop from './areas/shop/cs.json';
import csPartner from './areas/partner/cs.json';
import csPayments from './areas/payments/cs.json';
import csInvoices from './areas/invoices/cs.json';
import csCatalogue from './areas/catalogue/cs.json';
import csMailAliases from './areas/mailAliases/cs.json';

export const cs = {
  ...base,
  dashboard: csDashboard,
  domains: csDomains,
  domainUsers: csDomainUsers,
  dns: csDns,
  customers: csCustomers,
  tenants: csTenants,
  audit: csAudit,
  notifications: csNotifications,
  shop: csShop,
  partner: csPartner,
  payments: csPayments,
  invoices: csInvoices,
  catalogue: csCatalogue,
  mailAliases: csMailAliases,
} satisfies Strings;
