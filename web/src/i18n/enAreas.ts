/**
 * The English strings of the inner pages, one folder per area under areas/ (a top-level key of the
 * translation: `domains.list.title`). They come as a chunk of their own with the shell
 * (i18n.ts `loadEnglishAreas`, routes.tsx): the login screens need none of them.
 */
import enDashboard from './areas/dashboard/en.json';
import enDomains from './areas/domains/en.json';
import enDomainUsers from './areas/domainUsers/en.json';
import enDns from './areas/dns/en.json';
import enCustomers from './areas/customers/en.json';
import enTenants from './areas/tenants/en.json';
import enAudit from './areas/audit/en.json';
import enNotifications from './areas/notifications/en.json';
import enShop from './areas/shop/en.json';
import enPartner from './areas/partner/en.json';
import enPayments from './areas/payments/en.json';
import enInvoices from './areas/invoices/en.json';
import enCatalogue from './areas/catalogue/en.json';
import enMailAliases from './areas/mailAliases/en.json';

export const enAreas = {
  dashboard: enDashboard,
  domains: enDomains,
  domainUsers: enDomainUsers,
  dns: enDns,
  customers: enCustomers,
  tenants: enTenants,
  audit: enAudit,
  notifications: enNotifications,
  shop: enShop,
  partner: enPartner,
  payments: enPayments,
  invoices: enInvoices,
  catalogue: enCatalogue,
  mailAliases: enMailAliases,
};
