import { Badge, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Customer } from '@berth/contracts';
import classes from '../../Pages.module.css';

/** Locked, two-factor and e-mail verification of a customer, as small badges. */
export function CustomerStatus({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  return (
    <Group gap={6} wrap="wrap">
      {customer.locked ? (
        <Badge color="red" variant="light" radius="sm" className={classes.badge}>
          {t('customers.status.locked')}
        </Badge>
      ) : (
        <Badge color="green" variant="light" radius="sm" className={classes.badge}>
          {t('customers.status.active')}
        </Badge>
      )}
      {customer.google2fa_enabled ? (
        <Badge color="harbor" variant="light" radius="sm" className={classes.badge}>
          {t('customers.status.twoFactor')}
        </Badge>
      ) : null}
      {customer.email_verified ? null : (
        <Badge color="yellow" variant="light" radius="sm" className={classes.badge}>
          {t('customers.status.unverified')}
        </Badge>
      )}
    </Group>
  );
}
