import { useState } from 'react';
import { Anchor, Avatar, Button, Text } from '@mantine/core';
import { IconAdjustments } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Customer } from '@berth/contracts';
import { userCreditExportUrl, useUserCreditLedger, type CreditFilter } from '../../../api/credit.ts';
import { invoicePdfUrl } from '../../../api/invoices.ts';
import { AppModal } from '../../../components/AppModal.tsx';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { PageHeader } from '../../PageHeader.tsx';
import { CreditAdjustmentFields } from '../../partner/CreditAdjustmentForm.tsx';
import { CreditBalance, CreditLedger, EMPTY_CREDIT_FILTER } from '../../partner/CreditLedger.tsx';
import { CustomerFrame, useCustomerIdParam } from './CustomerFrame.tsx';
import customerClasses from './Customers.module.css';

/**
 * /system/customers/{id}/credit: a customer's credit balance and ledger (filters, CSV export) as
 * the customer sees it, and adjusting it. A customer of another tenant is "not found".
 */
export function CustomerCreditPage() {
  const { t } = useTranslation();
  const { id, valid } = useCustomerIdParam();
  const [filter, setFilter] = useState<CreditFilter>(EMPTY_CREDIT_FILTER);
  const ledger = useUserCreditLedger(id, filter, valid);
  return (
    <CustomerFrame
      back={{ to: `/system/customers/${id}`, label: t('customers.credit.backToCustomer') }}
      title={(name) => (name ? t('customers.credit.title', { name }) : t('customers.credit.fallbackTitle'))}
      notFound={ledger.error?.status === 404}
    >
      {(customer, name) => (
        <>
          <CreditHeader customer={customer} name={name} />
          <CreditBalance ledger={ledger} />
          <CreditLedger
            ledger={ledger}
            filter={filter}
            onFilterChange={setFilter}
            exportUrl={userCreditExportUrl(id, filter)}
            invoiceLink={(invoiceId) => (
              <Anchor href={invoicePdfUrl('system', invoiceId)} download fz="xs">
                {t('customers.credit.invoicePdf')}
              </Anchor>
            )}
          />
        </>
      )}
    </CustomerFrame>
  );
}

/** The customer's name and e-mail address, and adjusting their credit in a dialog. */
function CreditHeader({ customer, name }: { customer: Customer; name: string }) {
  const { t } = useTranslation();
  const [adjusting, setAdjusting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const close = () => {
    setAdjusting(false);
  };

  return (
    <>
      <PageHeader
        title={t('customers.credit.title', { name })}
        description={
          <span className={customerClasses.identity}>
            <Avatar name={name} color="harbor" variant="filled" size={28} radius="xl" alt="" />
            <span className={customerClasses.identityText}>{customer.email}</span>
          </span>
        }
        actions={
          <Button
            leftSection={<IconAdjustments size={16} aria-hidden />}
            onClick={() => {
              setNotice(null);
              setAdjusting(true);
            }}
          >
            {t('customers.credit.adjust')}
          </Button>
        }
      />
      {notice ? (
        <FormAlert
          kind="success"
          onClose={() => {
            setNotice(null);
          }}
        >
          {notice}
        </FormAlert>
      ) : null}
      <AppModal opened={adjusting} onClose={close} title={t('partner.adjust.title')}>
        <Text fz="sm" c="dimmed" mb="md">
          {t('partner.adjust.description')}
        </Text>
        <CreditAdjustmentFields
          user={{ id: customer.id, label: `${name} <${customer.email}>` }}
          onCancel={close}
          onDone={(message) => {
            setNotice(message);
            close();
          }}
        />
      </AppModal>
    </>
  );
}
