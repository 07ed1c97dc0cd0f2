import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import type { UpcomingFeature } from '../pages/ComingSoonPage.tsx';
import { RouteLoading } from './RouteLoading.tsx';

function lazyPage(load: () => Promise<ComponentType>): LazyExoticComponent<ComponentType> {
  return lazy(async () => ({ default: await load() }));
}

const DashboardPage = lazyPage(async () => (await import('../pages/DashboardPage.tsx')).DashboardPage);
const AccountPage = lazyPage(async () => (await import('../pages/account/AccountPage.tsx')).AccountPage);
const TwoFactorPage = lazyPage(
  async () => (await import('../pages/account/TwoFactorPage.tsx')).TwoFactorPage,
);
const PasswordPage = lazyPage(
  async () => (await import('../pages/account/PasswordPage.tsx')).PasswordPage,
);
const OutboxPage = lazyPage(async () => (await import('../pages/system/OutboxPage.tsx')).OutboxPage);
const NotFoundPage = lazyPage(async () => (await import('../pages/NotFoundPage.tsx')).NotFoundPage);
const ComingSoonPage = lazy(async () => ({
  default: (await import('../pages/ComingSoonPage.tsx')).ComingSoonPage,
}));

const comingSoon = (feature: UpcomingFeature) => <ComingSoonPage feature={feature} />;

/**
 * The inner routes of the shell, matched in order (SPEC.md section 2). Paths are relative to
 * the shell's catch-all route, i.e. to `/`. Sections of the menu that later issues build show
 * what is coming; any other path is "not found".
 */
const innerRoutes: RouteObject[] = [
  { index: true, element: <Navigate to="/dashboard" replace /> },
  { path: 'dashboard', element: <DashboardPage /> },
  { path: 'account', element: <AccountPage /> },
  { path: 'account/2fa', element: <TwoFactorPage /> },
  { path: 'password', element: <PasswordPage /> },
  { path: 'system/outbox', element: <OutboxPage /> },
  { path: 'host/*', element: comingSoon('hosting') },
  { path: 'shop/*', element: comingSoon('shop') },
  { path: 'account/invoices', element: comingSoon('shop') },
  { path: 'account/payment-methods', element: comingSoon('shop') },
  { path: 'system/partner/*', element: comingSoon('partner') },
  { path: 'system/customers/*', element: comingSoon('administration') },
  { path: 'system/tenants/*', element: comingSoon('administration') },
  { path: 'system/audit/*', element: comingSoon('administration') },
  { path: '*', element: <NotFoundPage /> },
];

/** The page for the current path, with a quiet spinner while its code loads. */
export function ShellRoutes() {
  const page = useRoutes(innerRoutes);
  return <Suspense fallback={<RouteLoading />}>{page}</Suspense>;
}
