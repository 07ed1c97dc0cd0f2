/**
 * Translations of the inner pages, one folder per area so that each area owns its strings.
 * Every area is a top-level key of the translation (`domains.list.title`); i18n.ts checks that
 * German and Czech have every key English has.
 */
import enDashboard from './areas/dashboard/en.json';
import deDashboard from './areas/dashboard/de.json';
import csDashboard from './areas/dashboard/cs.json';
import enDomains from './areas/domains/en.json';
import deDomains from './areas/domains/de.json';
import csDomains from './areas/domains/cs.json';
import enDomainUsers from './areas/domainUsers/en.json';
import deDomainUsers from './areas/domainUsers/de.json';
import csDomainUsers from './areas/domainUsers/cs.json';
import enDns from './areas/dns/en.json';
import deDns from './areas/dns/de.json';
import csDns from './areas/dns/cs.json';
import enCustomers from './areas/customers/en.json';
import deCustomers from './areas/customers/de.json';
import csCustomers from './areas/customers/cs.json';
import enTenants from './areas/tenants/en.json';
import deTenants from './areas/tenants/de.json';
import csTenants from './areas/tenants/cs.json';
import enAudit from './areas/audit/en.json';
import deAudit from './areas/audit/de.json';
import csAudit from './areas/audit/cs.json';
import enNotifications from './areas/notifications/en.json';
import deNotifications from './areas/notifications/de.json';
import csNotifications from './areas/notifications/cs.json';
import enShop from './areas/shop/en.json';
import deShop from './areas/shop/de.json';
import csShop from './areas/shop/cs.json';
import enPartner from './areas/partner/en.json';
import dePartner from './areas/partner/de.json';
import csPartner from './areas/partner/cs.json';
import enPayments from './areas/payments/en.json';
import dePayments from './areas/payments/de.json';
import csPayments from './areas/payments/cs.json';
import enInvoices from './areas/invoices/en.json';
import deInvoices from './areas/invoices/de.json';
import csInvoices from './areas/invoices/cs.json';
import enCatalogue from './areas/catalogue/en.json';
import deCatalogue from './areas/catalogue/de.json';
import csCatalogue from './areas/catalogue/cs.json';

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
};
export const deAreas = {
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
};
export const csAreas = {
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
};
