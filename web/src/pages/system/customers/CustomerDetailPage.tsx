import { useState } from 'react';
import { Link } from 'react-router';
import { Avatar, Button, Text } from '@mantine/core';
import { IconCoins, IconLogin2, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Customer } from '@berth/contracts';
import { useImpersonate } from '../../../api/customers.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';
import { translateServerText } from '../../../i18n/i18n.ts';
import { useSignedInUser } from '../../../shell/useSignedInUser.ts';
import { PageHeader, Section } from '../../PageHeader.tsx';
import { CustomerAccess } from './CustomerAccess.tsx';
import { CustomerContactForm } from './CustomerContactForm.tsx';
import { CustomerFrame } from './CustomerFrame.tsx';
import { DeleteCustomerDialog } from './DeleteCustomerDialog.tsx';
import customerClasses from './Customers.module.css';

/** /system/customers/{id}: status, lock and 2FA, contact data, the credit link, "log in as" and deletion. */
export function CustomerDetailPage() {
  const { t } = useTranslation();
  return (
    <CustomerFrame back={{ to: '/system/customers', label: t('customers.backToList') }} title={(name) => name ?? t('customers.title')}>
      {(customer, name) => <CustomerDetail customer={customer} name={name} />}
    </CustomerFrame>
  );
}

function CustomerDetail({ customer, name }: { customer: Customer; name: string }) {
  const { t } = useTranslation();
  const { user } = useSignedInUser();
  const impersonate = useImpersonate(user);
  const [notice, setNotice] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  return (
    <>
      <PageHeader
        title={name}
        description={
          <span className={customerClasses.identity}>
            <Avatar name={name} color="harbor" variant="filled" size={28} radius="xl" alt="" />
            <span className={customerClasses.identityText}>{customer.email}</span>
          </span>
        }
        actions={
          <>
            <Button
              component={Link}
              to={`/system/customers/${customer.id}/credit`}
              variant="default"
              leftSection={<IconCoins size={16} aria-hidden />}
            >
              {t('customers.credit.action')}
            </Button>
            <Button
              leftSection={<IconLogin2 size={16} aria-hidden />}
              loading={impersonate.isPending}
              disabled={customer.locked}
              onClick={() => {
                setNotice(null);
                impersonate.mutate(customer.id);
              }}
            >
              {t('customers.impersonate.action')}
            </Button>
          </>
        }
      />
      {customer.locked ? <FormAlert kind="info">{t('customers.impersonate.lockedHint')}</FormAlert> : null}
      {impersonate.isError ? (
        <FormAlert kind="error" onClose={() => impersonate.reset()}>
          {describeError(impersonate.error, t)}
        </FormAlert>
      ) : null}
      {notice ? (
        <FormAlert
          kind="success"
          onClose={() => {
            setNotice(null);
          }}
        >
          {translateServerText(notice)}
        </FormAlert>
      ) : null}

      <CustomerAccess
        customer={customer}
        onDone={(message) => {
          setNotice(message ?? t('customers.access.done'));
        }}
      />
      <CustomerContactForm key={customer.id} customer={customer} />

      <Section id="delete" title={t('customers.delete.title')}>
        <div className={customerClasses.dangerRow}>
          <Text fz="sm" className={customerClasses.dangerText}>
            {t('customers.delete.description', { count: customer.domains })}
          </Text>
          <Button
            color="red"
            variant="light"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={() => {
              setDeleting(true);
            }}
          >
            {t('customers.delete.action')}
          </Button>
        </div>
      </Section>
      <DeleteCustomerDialog
        customer={customer}
        opened={deleting}
        onClose={() => {
          setDeleting(false);
        }}
      />
    </>
  );
}
