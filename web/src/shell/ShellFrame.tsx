import { Link, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Avatar, Badge, Button, Code, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconLogout } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Tenant, User } from '@berth/contracts';
import { forgetSession, useLogout } from '../api/queries.ts';
import { BrandMark } from '../components/BrandMark.tsx';
import { cx } from '../components/cx.ts';
import { usePageTitle } from '../components/usePageTitle.ts';
import { describeError } from '../forms/validation.ts';
import classes from './ShellFrame.module.css';

interface ShellFrameProps {
  user: User;
  tenant: Tenant;
}

export function displayName(user: User): string {
  return user.contact.display_name.trim() || user.email;
}

/** The signed-in frame: header with brand, user and logout; the inner route's content below. */
export function ShellFrame({ user, tenant }: ShellFrameProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logout = useLogout();
  const name = displayName(user);
  usePageTitle(t('shell.welcome', { name }));

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
            <Avatar
              src={user.image.url || null}
              name={name}
              color="harbor"
              size={34}
              radius="xl"
              alt=""
              className={classes.avatar}
            />
            <div className={classes.who}>
              <Text fz="sm" fw={600} truncate="end" data-testid="shell-user-name">
                {name}
              </Text>
              {name !== user.email ? (
                <Text fz="xs" c="dimmed" truncate="end" className={classes.email}>
                  {user.email}
                </Text>
              ) : null}
            </div>
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

          <Paper withBorder radius="lg" shadow="md" className={classes.welcome}>
            <Stack gap="xs">
              <Title order={1} className={classes.welcomeTitle}>
                {t('shell.welcome', { name })}
              </Title>
              <Text c="dimmed">{t('shell.intro')}</Text>
            </Stack>
            <dl className={classes.facts}>
              <div className={classes.fact}>
                <dt>{t('shell.currentPage')}</dt>
                <dd>
                  <Code className={classes.path}>
                    {`${location.pathname}${location.search}`}
                  </Code>
                </dd>
              </div>
              <div className={classes.fact}>
                <dt>{t('shell.account')}</dt>
                <dd className={classes.breakable}>{user.email}</dd>
              </div>
              <div className={classes.fact}>
                <dt>{t('shell.role')}</dt>
                <dd>{t(`roles.${user.role}`)}</dd>
              </div>
              <div className={classes.fact}>
                <dt>{t('shell.twoFactor')}</dt>
                <dd>
                  <Badge
                    variant="dot"
                    color={user.google2fa_enabled ? 'green' : 'gray'}
                    size="lg"
                    radius="sm"
                    className={classes.status}
                  >
                    {user.google2fa_enabled ? t('shell.twoFactorOn') : t('shell.twoFactorOff')}
                  </Badge>
                </dd>
              </div>
            </dl>
          </Paper>
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
