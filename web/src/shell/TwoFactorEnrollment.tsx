import { Button } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { FormAlert } from '../forms/FormAlert.tsx';
import { useTranslation } from 'react-i18next';
import type { Tenant } from '@berth/contracts';
import { BrandMark } from '../components/BrandMark.tsx';
import { TwoFactorPage } from '../pages/account/TwoFactorPage.tsx';
import { useLogoutAction } from './useLogoutAction.ts';
import classes from './TwoFactorEnrollment.module.css';

/**
 * What a user sees while the provider requires a second factor they have not set up: only
 * /account/2fa, with a way out. The rest of the panel (menus, pages) would answer 403 until then.
 */
export function TwoFactorEnrollment({ tenant, onDone }: { tenant: Tenant; onDone: () => void }) {
  const { t } = useTranslation();
  const logout = useLogoutAction();
  return (
    <div className={classes.page}>
      <header className={classes.topbar}>
        <BrandMark tenant={tenant} compactOnPhone />
        <Button variant="default" leftSection={<IconLogout size={16} aria-hidden />} loading={logout.pending} onClick={logout.run}>
          {t('shell.logout')}
        </Button>
      </header>
      <main className={classes.main}>
        <div className={classes.notice}>
          <FormAlert kind="info" title={t('shell.enrollment.title')}>
            {t('shell.enrollment.body')}
          </FormAlert>
        </div>
        <TwoFactorPage onCodesSaved={onDone} />
      </main>
    </div>
  );
}
