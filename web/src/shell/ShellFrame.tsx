import { Link, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconLogout } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Tenant, User } from '@berth/contracts';
import { forgetSession, useLogout } from '../api/queries.ts';
import { BrandMark } from '../components/BrandMark.tsx';
import { cx } from '../components/cx.ts';
import { RouteStateMessage } from '../components/RouteStateMessage.tsx';
import { describeError } from '../forms/validation.ts';
import { EmailVerificationBar } from './EmailVerificationBar.tsx';
import { ShellRoutes } from './ShellRoutes.tsx';
import { UserMenu } from './UserMenu.tsx';
import classes from './ShellFrame.module.css';

interface ShellFrameProps {
  user: User;
  tenant: Tenant;
}

/** The signed-in frame: header with brand, user menu and logout; the inner page below. */
export function ShellFrame({ user, tenant }: ShellFrameProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = useLogout();

  const onLogout = () => {
    logout.mutate(undefined, {
      onSuccess: () => {
        // Leave the shell first, so nothing in it refetches the user we are about to forget.
        void Promise.resolve(
          navigate('/login', { replace: true, state: { message: 'shell.loggedOut' } }),
        ).then(() => {
          forgetSession(queryClient);
        });
      },
    });
  };

  return (
    <div className={classes.page}>
      <a href="#main" className={classes.skipLink}>
        {t('shell.skipToContent')}
      </a>
      <header className={classes.header}>
        <div className={cx(classes.container, classes.headerInner)}>
          <Link to="/dashboard" className={classes.home} aria-label={tenant.title}>
            <BrandMark tenant={tenant} compactOnPhone />
          </Link>
          <div className={classes.account}>
            <UserMenu user={user} />
            <Button
              variant="default"
              size="sm"
              leftSection={<IconLogout size={16} aria-hidden />}
              loading={logout.isPending}
              onClick={onLogout}
              className={classes.logout}
            >
              {t('shell.logout')}
            </Button>
          </div>
        </div>
      </header>

      <main id="main" tabIndex={-1} className={classes.main}>
        <Stack gap="lg" className={classes.container}>
          {user.email_verified ? null : <EmailVerificationBar />}
          {logout.isError ? (
            <Alert
              color="red"
              variant="light"
              title={t('shell.logoutFailed')}
              icon={<IconAlertCircle aria-hidden />}
              withCloseButton
              closeButtonLabel={t('app.dismiss')}
              onClose={() => {
                logout.reset();
              }}
            >
              {describeError(logout.error, t)}
            </Alert>
          ) : null}
          <RouteStateMessage />
          <ShellRoutes />
        </Stack>
      </main>

      <footer className={classes.footer}>
        <Text fz="xs" c="dimmed">
          {t('auth.footer', { year: new Date().getFullYear(), title: tenant.title })}
        </Text>
      </footer>
    </div>
  );
}
