import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { creditExportUrl, useCreditLedger, type CreditFilter } from '../../api/credit.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { AddCreditDialog } from '../../shell/AddCreditDialog.tsx';
import { useMay, useSignedInUser } from '../../shell/useSignedInUser.ts';
import { PageHeader } from '../PageHeader.tsx';
import classes from '../Pages.module.css';
import { CreditAdjustmentForm } from './CreditAdjustmentForm.tsx';
import { CreditBalance, CreditLedger, EMPTY_CREDIT_FILTER } from './CreditLedger.tsx';

/** /system/partner/credit: the balance, the ledger with filters and CSV export, adding credit. */
export function CreditPage() {
  const { t } = useTranslation();
  const { user } = useSignedInUser();
  // A customer's own prepaid credit; "partner credit" is the reseller's.
  const title = user.role === 'customer' ? t('partner.credit.customerTitle') : t('partner.credit.title');
  usePageTitle(title);
  const [adding, setAdding] = useState(false);
  const [filter, setFilter] = useState<CreditFilter>(EMPTY_CREDIT_FILTER);
  const ledger = useCreditLedger(filter);
  const isAdmin = useMay()('credit.administer');

  return (
    <div className={classes.page}>
      <PageHeader
        title={title}
        description={user.role === 'customer' ? t('partner.credit.customerDescription') : t('partner.credit.description')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => {
              setAdding(true);
            }}
          >
            {t('partner.credit.add')}
          </Button>
        }
      />
      <CreditBalance ledger={ledger} limits />
      <CreditLedger ledger={ledger} filter={filter} onFilterChange={setFilter} exportUrl={creditExportUrl(filter)} />

      {isAdmin ? <CreditAdjustmentForm /> : null}

      <AddCreditDialog
        opened={adding}
        onClose={() => {
          setAdding(false);
        }}
      />
    </div>
  );
}
