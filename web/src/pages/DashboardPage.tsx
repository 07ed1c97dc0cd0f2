import { Link } from 'react-router';
import { Anchor, Badge, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../components/usePageTitle.ts';
import { displayName } from '../shell/UserMenu.tsx';
import { useSignedInUser } from '../shell/useSignedInUser.ts';
import classes from './Pages.module.css';

/** /dashboard: a welcome for now; the domain overview comes with a later issue. */
export function DashboardPage() {
  const { t } = useTranslation();
  const { user } = useSignedInUser();
  const name = displayName(user);
  usePageTitle(t('shell.welcome', { name }));

  return (
    <Paper withBorder radius="lg" shadow="md" className={classes.section}>
      <Stack gap="xs">
        <Title order={1} className={classes.title}>
          {t('shell.welcome', { name })}
        </Title>
        <Text c="dimmed">{t('shell.intro')}</Text>
      </Stack>
      <dl className={classes.facts}>
        <div className={classes.fact}>
          <dt>{t('shell.account')}</dt>
          <dd>{user.email}</dd>
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
              className={classes.badge}
            >
              {user.google2fa_enabled ? t('shell.twoFactorOn') : t('shell.twoFactorOff')}
            </Badge>
            {user.google2fa_enabled ? null : (
              <Anchor component={Link} to="/account/2fa" fz="sm" fw={600} ml="sm">
                {t('dashboard.setUp2fa')}
              </Anchor>
            )}
          </dd>
        </div>
      </dl>
    </Paper>
  );
}
