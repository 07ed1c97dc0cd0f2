import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

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

/**
 * The inner routes of the shell, matched in order (SPEC.md section 2). Paths are relative to
 * the shell's catch-all route, i.e. to `/`. Later issues add the domain, shop and system pages.
 */
const innerRoutes: RouteObject[] = [
  { index: true, element: <Navigate to="/dashboard" replace /> },
  { path: 'dashboard', element: <DashboardPage /> },
  { path: 'account', element: <AccountPage /> },
  { path: 'account/2fa', element: <TwoFactorPage /> },
  { path: 'password', element: <PasswordPage /> },
  { path: 'system/outbox', element: <OutboxPage /> },
  { path: '*', element: <NotFoundPage /> },
];

/** The page for the current path, with a quiet spinner while its code loads. */
export function ShellRoutes() {
  const { t } = useTranslation();
  const page = useRoutes(innerRoutes);
  return (
    <Suspense
      fallback={
        <Center py={64} role="status" aria-label={t('app.loading')}>
          <Loader size="md" type="dots" />
        </Center>
      }
    >
      {page}
    </Suspense>
  );
}
