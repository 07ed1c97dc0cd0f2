import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Center, Loader, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useTenant } from '../api/queries.ts';
import { BrandMark } from '../components/BrandMark.tsx';
import { LanguageSelector } from '../components/LanguageSelector.tsx';
import classes from './AuthLayout.module.css';

/**
 * The frame of every public screen: a centred card on a quiet background. `year` is the footer's
 * (the build's render of /login passes a marker the server replaces, prerender/loginPage.tsx).
 */
export function AuthLayout({ year = new Date().getFullYear() }: { year?: number | string }) {
  const { t } = useTranslation();
  const tenant = useTenant();
  const title = tenant.data?.title ?? t('app.name');

  return (
    <div className={classes.page}>
      <header className={classes.topbar}>
        <LanguageSelector />
      </header>
      <main className={classes.main}>
        <Paper className={classes.card} shadow="xl" radius="lg" withBorder>
          <div className={classes.brand}>
            <BrandMark tenant={tenant.data} loading={tenant.isPending} size="lg" />
          </div>
          <Suspense
            fallback={
              <Center py="xl" role="status" aria-label={t('app.loading')}>
                <Loader size="md" type="dots" />
              </Center>
            }
          >
            <Outlet />
          </Suspense>
        </Paper>
      </main>
      <footer className={classes.footer}>
        <Text fz="xs" c="dimmed">
          {/* A reseller's customers must not see another name first: the line waits for the tenant (keeping its height). */}
          {tenant.isPending ? '\u00a0' : t('auth.footer', { year, title })}
        </Text>
      </footer>
    </div>
  );
}
