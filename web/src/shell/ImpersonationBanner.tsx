import { Button } from '@mantine/core';
import { IconArrowBackUp, IconUserShield } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Impersonator, User } from '@berth/contracts';
import { useStopImpersonation } from '../api/customers.ts';
import { describeError } from '../forms/validation.ts';
import { displayName } from './UserMenu.tsx';
import classes from './ImpersonationBanner.module.css';

/**
 * While an admin is logged in as a customer ("log in as"): whose panel this is, and the way back
 * to the admin's own account (then to the customers list).
 */
export function ImpersonationBanner({ user, impersonator }: { user: User; impersonator: Impersonator }) {
  const { t } = useTranslation();
  const stop = useStopImpersonation();
  const admin = impersonator.display_name.trim() || impersonator.email;

  return (
    <section className={classes.banner} aria-label={t('customers.banner.label')} data-testid="impersonation-banner">
      <span className={classes.icon} aria-hidden>
        <IconUserShield size={18} />
      </span>
      <div className={classes.text}>
        <div className={classes.title}>{t('customers.banner.text', { name: `${displayName(user)} (${user.email})` })}</div>
        <div className={classes.detail}>{t('customers.banner.detail', { admin })}</div>
      </div>
      <Button
        variant="white"
        size="xs"
        leftSection={<IconArrowBackUp size={16} aria-hidden />}
        loading={stop.isPending}
        onClick={() => {
          stop.mutate();
        }}
        className={classes.button}
      >
        {t('customers.banner.back')}
      </Button>
      {stop.isError ? (
        <div className={classes.error} role="alert">
          {t('customers.banner.failed')}: {describeError(stop.error, t)}
        </div>
      ) : null}
    </section>
  );
}
