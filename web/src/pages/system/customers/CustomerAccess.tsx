import { useState } from 'react';
import { Badge, Button, Group } from '@mantine/core';
import { IconLock, IconLockOpen, IconShieldOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Customer } from '@berth/contracts';
import { useCustomerAction, type CustomerAction } from '../../../api/customers.ts';
import { formatDate, formatDateTime } from '../../../components/formatDate.ts';
import { describeError } from '../../../forms/validation.ts';
import { Section } from '../../PageHeader.tsx';
import { ConfirmDialog } from '../../../components/ConfirmDialog.tsx';
import { CustomerStatus } from './CustomerStatus.tsx';
import classes from '../../Pages.module.css';
import customerClasses from './Customers.module.css';

/** Status facts, and lock/unlock and "reset 2FA" (each after a confirmation). */
export function CustomerAccess({ customer, onDone }: { customer: Customer; onDone: (message: string | undefined) => void }) {
  const { t } = useTranslation();
  const action = useCustomerAction(customer.id);
  // The last action asked about stays in the dialog while it fades out.
  const [which, setWhich] = useState<CustomerAction>('lock');
  const [opened, setOpened] = useState(false);
  const ask = (next: CustomerAction) => {
    action.reset();
    setWhich(next);
    setOpened(true);
  };
  const close = () => {
    setOpened(false);
  };

  const dialogs: Record<CustomerAction, { title: string; body: string; confirm: string; danger: boolean }> = {
    lock: {
      title: t('customers.lock.title'),
      body: t('customers.lock.body', { email: customer.email }),
      confirm: t('customers.lock.confirm'),
      danger: true,
    },
    unlock: {
      title: t('customers.unlock.title'),
      body: t('customers.unlock.body', { email: customer.email }),
      confirm: t('customers.unlock.confirm'),
      danger: false,
    },
    'reset-2fa': {
      title: t('customers.reset2fa.title'),
      body: t('customers.reset2fa.body', { email: customer.email }),
      confirm: t('customers.reset2fa.confirm'),
      danger: true,
    },
  };
  const dialog = dialogs[which];

  return (
    <Section id="access" title={t('customers.access.title')} aside={<CustomerStatus customer={customer} />}>
      <dl className={classes.facts}>
        <div className={classes.fact}>
          <dt>{t('customers.access.login')}</dt>
          <dd>
            {customer.locked && customer.locked_at
              ? t('customers.access.lockedSince', { date: formatDateTime(customer.locked_at) })
              : t('customers.access.canLogIn')}
          </dd>
        </div>
        <div className={classes.fact}>
          <dt>{t('shell.twoFactor')}</dt>
          <dd>
            <Badge variant="dot" color={customer.google2fa_enabled ? 'green' : 'gray'} size="lg" radius="sm" className={classes.badge}>
              {customer.google2fa_enabled ? t('shell.twoFactorOn') : t('shell.twoFactorOff')}
            </Badge>
          </dd>
        </div>
        <div className={classes.fact}>
          <dt>{t('customers.access.email')}</dt>
          <dd>{customer.email_verified ? t('customers.access.verified') : t('customers.access.unverified')}</dd>
        </div>
        <div className={classes.fact}>
          <dt>{t('customers.list.domains')}</dt>
          <dd>{customer.domains}</dd>
        </div>
        <div className={classes.fact}>
          <dt>{t('customers.list.created')}</dt>
          <dd>
            <time dateTime={customer.created_at}>{formatDate(customer.created_at)}</time>
          </dd>
        </div>
      </dl>
      <Group gap="sm" className={customerClasses.actionsBar}>
        {customer.locked ? (
          <Button variant="default" leftSection={<IconLockOpen size={16} aria-hidden />} onClick={() => ask('unlock')}>
            {t('customers.unlock.action')}
          </Button>
        ) : (
          <Button variant="default" color="red" leftSection={<IconLock size={16} aria-hidden />} onClick={() => ask('lock')}>
            {t('customers.lock.action')}
          </Button>
        )}
        {customer.google2fa_enabled ? (
          <Button variant="default" leftSection={<IconShieldOff size={16} aria-hidden />} onClick={() => ask('reset-2fa')}>
            {t('customers.reset2fa.action')}
          </Button>
        ) : null}
      </Group>
      <ConfirmDialog
        opened={opened}
        title={dialog.title}
        confirmLabel={dialog.confirm}
        danger={dialog.danger}
        loading={action.isPending}
        error={action.isError ? describeError(action.error, t) : null}
        onClose={close}
        onConfirm={() => {
          action.mutate(which, {
            onSuccess: (answer) => {
              setOpened(false);
              onDone(answer.message);
            },
          });
        }}
      >
        {dialog.body}
      </ConfirmDialog>
    </Section>
  );
}
