import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { PrerenderHandOff } from '../prerender/handoff.ts';
import { RouteLoading } from './RouteLoading.tsx';

function lazyPage(load: () => Promise<ComponentType>): LazyExoticComponent<ComponentType> {
  return lazy(async () => ({ default: await load() }));
}

const DashboardPage = lazyPage(async () => (await import('../pages/DashboardPage.tsx')).DashboardPage);
const AccountPage = lazyPage(async () => (await import('../pages/account/AccountPage.tsx')).AccountPage);
const TwoFactorPage = lazyPage(async () => (await import('../pages/account/TwoFactorPage.tsx')).TwoFactorPage);
const PasswordPage = lazyPage(async () => (await import('../pages/account/PasswordPage.tsx')).PasswordPage);
const OutboxPage = lazyPage(async () => (await import('../pages/system/OutboxPage.tsx')).OutboxPage);
const ServersPage = lazyPage(async () => (await import('../pages/system/ServersPage.tsx')).ServersPage);
const JobsPage = lazyPage(async () => (await import('../pages/system/JobsPage.tsx')).JobsPage);
const WebhooksPage = lazyPage(async () => (await import('../pages/system/WebhooksPage.tsx')).WebhooksPage);
const NotFoundPage = lazyPage(async () => (await import('../pages/NotFoundPage.tsx')).NotFoundPage);

// One lazy chunk per area page; each area owns its folder under pages/.
const DomainListPage = lazyPage(async () => (await import('../pages/host/domains/DomainListPage.tsx')).DomainListPage);
const DomainCreatePage = lazyPage(async () => (await import('../pages/host/domains/DomainCreatePage.tsx')).DomainCreatePage);
const DomainEditPage = lazyPage(async () => (await import('../pages/host/domains/DomainEditPage.tsx')).DomainEditPage);
const DomainUsersPage = lazyPage(async () => (await import('../pages/host/domain-users/DomainUsersPage.tsx')).DomainUsersPage);
const MailAliasesPage = lazyPage(async () => (await import('../pages/host/mail-aliases/MailAliasesPage.tsx')).MailAliasesPage);
const DnsPage = lazyPage(async () => (await import('../pages/host/dns/DnsPage.tsx')).DnsPage);
const DomainRenewPage = lazyPage(async () => (await import('../pages/shop/DomainRenewPage.tsx')).DomainRenewPage);
const ShopRoutes = lazyPage(async () => (await import('../pages/shop/ShopRoutes.tsx')).ShopRoutes);
const InvoicesPage = lazyPage(async () => (await import('../pages/shop/InvoicesPage.tsx')).InvoicesPage);
const PaymentMethodsPage = lazyPage(async () => (await import('../pages/shop/PaymentMethodsPage.tsx')).PaymentMethodsPage);
const PartnerRoutes = lazyPage(async () => (await import('../pages/partner/PartnerRoutes.tsx')).PartnerRoutes);
const CustomerRoutes = lazyPage(async () => (await import('../pages/system/customers/CustomerRoutes.tsx')).CustomerRoutes);
const TenantRoutes = lazyPage(async () => (await import('../pages/system/tenants/TenantRoutes.tsx')).TenantRoutes);
const ServicesPage = lazyPage(async () => (await import('../pages/account/ServicesPage.tsx')).ServicesPage);
const ApiTokensPage = lazyPage(async () => (await import('../pages/account/api-tokens/ApiTokensPage.tsx')).ApiTokensPage);
const SecurityPage = lazyPage(async () => (await import('../pages/system/security/SecurityPage.tsx')).SecurityPage);
const AuditPage = lazyPage(async () => (await import('../pages/system/audit/AuditPage.tsx')).AuditPage);
const NotificationsPage = lazyPage(async () => (await import('../pages/notifications/NotificationsPage.tsx')).NotificationsPage);

/**
 * The inner routes of the shell, matched in order (docs/product.md §2). Paths are relative to
 * the shell's catch-all route, i.e. to `/`. Areas with several screens (`shop/*`,
 * `system/partner/*`, ...) route their own sub-paths; any other path is "not found".
 */
const innerRoutes: RouteObject[] = [
  { index: true, element: <Navigate to="/dashboard" replace /> },
  { path: 'dashboard', element: <DashboardPage /> },
  { path: 'notifications', element: <NotificationsPage /> },
  { path: 'account', element: <AccountPage /> },
  { path: 'account/2fa', element: <TwoFactorPage /> },
  { path: 'password', element: <PasswordPage /> },
  { path: 'account/invoices/*', element: <InvoicesPage /> },
  { path: 'account/payment-methods', element: <PaymentMethodsPage /> },
  { path: 'host/domain', element: <DomainListPage /> },
  { path: 'host/domain/create', element: <DomainCreatePage /> },
  { path: 'host/domain/:id/edit', element: <DomainEditPage /> },
  { path: 'host/domain/:id/users', element: <DomainUsersPage /> },
  { path: 'host/domain/:id/aliases', element: <MailAliasesPage /> },
  { path: 'host/domain/:id/dns', element: <DnsPage /> },
  { path: 'host/domain/:id/renew', element: <DomainRenewPage /> },
  { path: 'shop/*', element: <ShopRoutes /> },
  { path: 'system/partner/*', element: <PartnerRoutes /> },
  { path: 'system/customers/*', element: <CustomerRoutes /> },
  { path: 'system/tenants/*', element: <TenantRoutes /> },
  { path: 'system/audit', element: <AuditPage /> },
  { path: 'system/security', element: <SecurityPage /> },
  { path: 'account/api-tokens', element: <ApiTokensPage /> },
  { path: 'account/services', element: <ServicesPage /> },
  { path: 'system/outbox', element: <OutboxPage /> },
  { path: 'system/servers', element: <ServersPage /> },
  { path: 'system/jobs', element: <JobsPage /> },
  { path: 'system/webhooks', element: <WebhooksPage /> },
  { path: '*', element: <NotFoundPage /> },
];

/** The page for the current path, with a quiet spinner while its code loads. */
export function ShellRoutes() {
  const page = useRoutes(innerRoutes);
  return (
    <Suspense fallback={<RouteLoading />}>
      {page}
      <PrerenderHandOff />
    </Suspense>
  );
}
