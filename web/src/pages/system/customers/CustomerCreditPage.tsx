import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Anchor, Avatar, Button, Skeleton, Stack, Text } from '@mantine/core';
import { IconAdjustments, IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Customer } from '@berth/contracts';
import { userCreditExportUrl, useUserCreditLedger, type CreditFilter } from '../../../api/credit.ts';
import { useCustomer } from '../../../api/customers.ts';
import { invoicePdfUrl } from '../../../api/invoices.ts';
import { AppModal } from '../../../components/AppModal.tsx';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { describeError } from '../../../forms/validation.ts';
import { NotFoundPage } from '../../NotFoundPage.tsx';
import { PageHeader } from '../../PageHeader.tsx';
import { CreditAdjustmentFields } from '../../partner/CreditAdjustmentForm.tsx';
import { CreditBalance, CreditLedger, EMPTY_CREDIT_FILTER } from '../../partner/CreditLedger.tsx';
import classes from '../../Pages.module.css';
import customerClasses from './Customers.module.css';

/**
 * /system/customers/{id}/credit: a customer's credit balance and ledger (filters, CSV export) as
 * the customer sees it, and adjusting it. A customer of another tenant is "not found".
 */
export function CustomerCreditPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const valid = Number.isInteger(id) && id > 0 && id <= 2_147_483_647;
  const customer = useCustomer(id, valid);
  const [filter, setFilter] = useState<CreditFilter>(EMPTY_CREDIT_FILTER);
  const ledger = useUserCreditLedger(id, filter, valid);
  const name = customer.data ? customer.data.contact.display_name.trim() || customer.data.email : undefined;
  usePageTitle(name ? t('customers.credit.title', { name }) : t('customers.credit.fallbackTitle'));

  if (!valid || customer.error?.status === 404 || ledger.error?.status === 404) return <NotFoundPage />;

  return (
    <div className={classes.page}>
      <Button
        component={Link}
        to={`/system/customers/${id}`}
        variant="subtle"
        size="compact-sm"
        leftSection={<IconArrowLeft size={14} aria-hidden />}
        className={customerClasses.back}
      >
        {t('customers.credit.backToCustomer')}
      </Button>
      {customer.isPending ? (
        <Stack gap="lg" aria-busy="true">
          <Skeleton height={56} radius="md" width="60%" />
          <Skeleton height={120} radius="lg" />
          <Skeleton height={260} radius="lg" />
        </Stack>
      ) : customer.isError ? (
        <FormAlert kind="error">
          <Stack gap="xs" align="flex-start">
            <span>{describeError(customer.error, t)}</span>
            <Button size="xs" variant="default" onClick={() => void customer.refetch()}>
              {t('app.tryAgain')}
            </Button>
          </Stack>
        </FormAlert>
      ) : (
        <>
          <CreditHeader customer={customer.data} name={name ?? customer.data.email} />
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
    </div>
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
