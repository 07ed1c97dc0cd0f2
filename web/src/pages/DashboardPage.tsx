import { Badge } from '@mantine/core';
import { IconShieldLock, IconShoppingCart, IconUserCircle, IconWorld } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../components/usePageTitle.ts';
import { displayName } from '../shell/UserMenu.tsx';
import { useSignedInUser } from '../shell/useSignedInUser.ts';
import { PageHeader, Section } from './PageHeader.tsx';
import { DashboardShortcut } from './DashboardShortcut.tsx';
import classes from './Pages.module.css';
import dashboard from './DashboardPage.module.css';

/** /dashboard: a welcome, shortcuts to the areas of the panel and the account at a glance. */
export function DashboardPage() {
  const { t } = useTranslation();
  const { user } = useSignedInUser();
  const name = displayName(user);
  usePageTitle(t('shell.welcome', { name }));

  return (
    <div className={classes.page}>
      <PageHeader title={t('shell.welcome', { name })} description={t('shell.intro')} />

      <div className={dashboard.cards}>
        <DashboardShortcut
          to="/host/domain"
          icon={IconWorld}
          title={t('dashboard.domains')}
          text={t('dashboard.domainsText')}
        />
        <DashboardShortcut
          to="/shop"
          icon={IconShoppingCart}
          title={t('dashboard.shop')}
          text={t('dashboard.shopText')}
        />
        <DashboardShortcut
          to="/account/2fa"
          icon={IconShieldLock}
          title={t('dashboard.security')}
          text={user.google2fa_enabled ? t('dashboard.twoFactorOnText') : t('dashboard.twoFactorOffText')}
          aside={
            <Badge
              size="sm"
              radius="sm"
              variant="light"
              color={user.google2fa_enabled ? 'green' : 'orange'}
              className={classes.badge}
            >
              {user.google2fa_enabled ? t('dashboard.twoFactorBadgeOn') : t('dashboard.twoFactorBadgeOff')}
            </Badge>
          }
        />
        <DashboardShortcut
          to="/account"
          icon={IconUserCircle}
          title={t('dashboard.account')}
          text={t('dashboard.accountText')}
        />
      </div>

      <Section id="you" title={t('dashboard.atAGlance')}>
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
            <dd>{user.google2fa_enabled ? t('shell.twoFactorOn') : t('shell.twoFactorOff')}</dd>
          </div>
        </dl>
      </Section>
    </div>
  );
}
