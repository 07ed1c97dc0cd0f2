import { useState } from 'react';
import { Button, FileInput, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconCircleCheck, IconFileUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { BANK_STATEMENT_COLUMNS, BANK_STATEMENT_MAX_BYTES, type InvoiceListItem } from '@berth/contracts';
import { invoicePdfUrl, type InvoiceStatusFilter } from '../../api/invoices.ts';
import { useBankStatementImport, useMarkPaid } from '../../api/payments.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { describeError } from '../../forms/validation.ts';
import { translateServerText } from '../../i18n/i18n.ts';
import { useMay, useSignedInUser } from '../../shell/useSignedInUser.ts';
import { PageHeader, Section } from '../PageHeader.tsx';
import classes from '../Pages.module.css';
import { InvoiceStatusControl, InvoiceTable } from '../shop/InvoicesPage.tsx';
import { BankStatementResults } from './BankStatementResults.tsx';
import { NotAllowed } from '../system/tenants/NotAllowed.tsx';

/** /system/partner/invoices: the tenant's invoices; confirm bank transfers by hand or by statement. */
export function AdminInvoicesPage() {
  const { t } = useTranslation();
  const may = useMay();
  if (!may('invoices.manage')) return <NotAllowed title={t('invoices.admin.title')} body={t('invoices.admin.notAllowed')} />;
  return <TenantInvoices />;
}

function TenantInvoices() {
  const { t } = useTranslation();
  usePageTitle(t('invoices.admin.title'));
  const [status, setStatus] = useState<InvoiceStatusFilter>('unpaid');
  const markPaid = useMarkPaid();
  const [marking, setMarking] = useState<InvoiceListItem | null>(null);
  const [reference, setReference] = useState('');

  return (
    <div className={classes.page}>
      <PageHeader title={t('invoices.admin.title')} description={t('invoices.admin.description')} />
      <Section
        id="tenant-invoices"
        title={t('invoices.admin.list')}
        aside={<InvoiceStatusControl value={status} onChange={setStatus} options={['unpaid', 'paid', '']} />}
      >
        {markPaid.isSuccess ? (
          <FormAlert kind="success" onClose={() => markPaid.reset()}>
            {markPaid.data.message
              ? translateServerText(markPaid.data.message)
              : markPaid.data.data.already_paid
                ? t('invoices.admin.alreadyPaid')
                : t('invoices.admin.markedPaid')}
          </FormAlert>
        ) : null}
        <InvoiceTable
          scope="system"
          status={status}
          showBuyer
          pdfHref={(invoice) => invoicePdfUrl('system', invoice.id)}
          action={(invoice) =>
            invoice.status === 'unpaid' ? (
              <Button
                size="xs"
                variant="default"
                leftSection={<IconCircleCheck size={14} aria-hidden />}
                aria-label={t('invoices.admin.markPaidNamed', { number: invoice.number })}
                onClick={() => {
                  markPaid.reset();
                  setReference('');
                  setMarking(invoice);
                }}
              >
                {t('invoices.admin.markPaid')}
              </Button>
            ) : null
          }
        />
      </Section>
      <BankStatementImport />
      <ConfirmDialog
        opened={marking !== null}
        title={t('invoices.admin.markPaidTitle', { number: marking?.number ?? '' })}
        confirmLabel={t('invoices.admin.markPaid')}
        loading={markPaid.isPending}
        error={markPaid.isError ? describeError(markPaid.error, t) : null}
        onClose={() => {
          setMarking(null);
        }}
        onConfirm={() => {
          if (!marking) return;
          markPaid.mutate(
            { id: marking.id, reference: reference.trim() || undefined },
            {
              onSuccess: () => {
                setMarking(null);
              },
            },
          );
        }}
      >
        <Stack gap="md">
          <Text fz="sm">
            {t('invoices.admin.markPaidBody', {
              amount: marking?.gross.formatted ?? '',
              buyer: marking?.buyer.email ?? '',
            })}
          </Text>
          <TextInput
            label={t('invoices.admin.bankReference')}
            description={t('invoices.admin.bankReferenceHint')}
            value={reference}
            maxLength={100}
            onChange={(event) => {
              setReference(event.currentTarget.value);
            }}
          />
        </Stack>
      </ConfirmDialog>
    </div>
  );
}

function BankStatementImport() {
  const { t } = useTranslation();
  const { user, tenant } = useSignedInUser();
  const upload = useBankStatementImport();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = () => {
    if (!file) {
      setError(t('validation.required'));
      return;
    }
    if (file.size > BANK_STATEMENT_MAX_BYTES) {
      setError(t('invoices.admin.fileTooBig', { max: BANK_STATEMENT_MAX_BYTES / 1024 / 1024 }));
      return;
    }
    upload.mutate(
      { file, tenantId: user.role === 'super_admin' ? tenant.id : undefined },
      {
        onError: (failure) => {
          const texts = failure.fieldErrors.file;
          if (texts) setError(texts.map(translateServerText).join(' '));
        },
      },
    );
  };

  return (
    <Section
      id="bank-statement"
      title={t('invoices.admin.statementTitle')}
      description={t('invoices.admin.statementHint', { columns: BANK_STATEMENT_COLUMNS.join(', ') })}
    >
      <Stack gap="md">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <FileInput
            label={t('invoices.admin.statementFile')}
            accept=".csv,text/csv"
            value={file}
            onChange={(value) => {
              setFile(value);
              setError(null);
              upload.reset();
            }}
            error={error}
            clearable
            clearButtonProps={{ 'aria-label': t('invoices.admin.clearFile') }}
            miw={260}
          />
          <Button leftSection={<IconFileUpload size={16} aria-hidden />} loading={upload.isPending} onClick={submit}>
            {t('invoices.admin.import')}
          </Button>
        </Group>
        {upload.isError && !upload.error.fieldErrors.file ? <FormAlert kind="error">{describeError(upload.error, t)}</FormAlert> : null}
        {upload.isSuccess ? (
          <>
            {upload.data.message ? <FormAlert kind="success">{translateServerText(upload.data.message)}</FormAlert> : null}
            <BankStatementResults answer={upload.data} />
          </>
        ) : (
          <Text fz="xs" c="dimmed">
            {t('invoices.admin.statementNote')}
          </Text>
        )}
      </Stack>
    </Section>
  );
}
