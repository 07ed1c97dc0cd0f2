/** German, a chunk of its own loaded when chosen (i18n.ts); `satisfies` fails the build when it misses a key of English. */
import type { Strings } from './en.ts';
import base from './de.json';
import deDashboard from './areas/dashboard/de.json';
import deDomains from './areas/domains/de.json';
import deDomainUsers from './areas/domainUsers/de.json';
import deDns from './areas/dns/de.json';
import deCustomers from './areas/customers/de.json';
import deTenants from './areas/tenants/de.json';
import deAudit from './areas/audit/de.json';
import deNotifications from './areas/notifications/de.json';
import deShop from './areas/shop/de.json';
import dePartner from './areas/partner/de.json';
import dePayments from './areas/payments/de.json';
import deInvoices from './areas/invoices/de.json';
import deCatalogue from './areas/catalogue/de.json';
import deMailAliases from './areas/mailAliases/de.json';

export const de = {
  ...base,
  dashboard: deDashboard,
  domains: deDomains,
  domainUsers: deDomainUsers,
  dns: deDns,
  customers: deCustomers,
  tenants: deTenants,
  audit: deAudit,
  notifications: deNotifications,
  shop: deShop,
  partner: dePartner,
  payments: dePayments,
  invoices: deInvoices,
  catalogue: deCatalogue,
  mailAliases: deMailAliases,
} satisfies Strings;
