import { DateField } from '../../forms/DateField.tsx';
import type { ReactNode } from 'react';
import { LoadMore } from '../../components/ListStates.tsx';
import { Anchor, Badge, Button, NativeSelect, Skeleton, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CREDIT_ENTRY_TYPES, type CreditEntryType } from '@berth/contracts';
import type { CreditFilter, CreditPage } from '../../api/credit.ts';
import type { ApiError } from '../../api/client.ts';
import { formatDateTime } from '../../components/formatDate.ts';
import { Section } from '../PageHeader.tsx';
import classes from '../Pages.module.css';
import accountClasses from '../account/Account.module.css';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import shopClasses from '../shop/Shop.module.css';
import partnerClasses from './Partner.module.css';

/* The credit balance and the ledger with its filters and CSV export: the partner's own credit page and an admin's view of a customer's credit. */

const TYPE_COLOR: Record<CreditEntryType, string> = {
  top_up: 'harbor',
  purchase: 'gray',
  commission: 'green',
  manual: 'orange',
  refund: 'grape',
};

/** useCreditLedger or useUserCreditLedger: keyset pages of the ledger, the balance on each. */
export type CreditLedgerQuery = UseInfiniteQueryResult<InfiniteData<CreditPage>, ApiError>;

export const EMPTY_CREDIT_FILTER: CreditFilter = { from: '', to: '', type: '' };

/** The balance section: the amount (and the top-up limits when `limits`). */
export function CreditBalance({ ledger, limits = false }: { ledger: CreditLedgerQuery; limits?: boolean }) {
  const { t } = useTranslation();
  const first = ledger.data?.pages[0]?.data;
  return (
    <Section id="balance" title={t('partner.credit.balance')}>
      {first ? (
        <Stack gap={4}>
          <Text className={partnerClasses.balance} data-testid="credit-balance">
            {first.balance.formatted}
          </Text>
          {limits ? (
            <Text fz="sm" c="dimmed">
              {t('partner.credit.limits', { min: first.top_up.min.formatted, max: first.top_up.max.formatted })}
            </Text>
          ) : null}
        </Stack>
      ) : ledger.isError ? null : (
        <Skeleton height={40} width={180} radius="md" />
      )}
    </Section>
  );
}

interface CreditLedgerProps {
  ledger: CreditLedgerQuery;
  filter: CreditFilter;
  onFilterChange: (update: (current: CreditFilter) => CreditFilter) => void;
  /** The CSV export of the filtered ledger. */
  exportUrl: string;
  /** The link of an entry's invoice (default: the viewer's own invoice page). */
  invoiceLink?: (invoiceId: number) => ReactNode;
}

/** The history section: date and type filters, the CSV export, the table, "show more". */
export function CreditLedger({ ledger, filter, onFilterChange, exportUrl, invoiceLink }: CreditLedgerProps) {
  const { t } = useTranslation();
  const entries = ledger.data?.pages.flatMap((page) => page.data.entries) ?? [];
  const linkTo =
    invoiceLink ??
    ((invoiceId: number) => (
      <Anchor component={Link} to={`/account/invoices/${invoiceId}`} fz="xs">
        {t('partner.credit.invoice')}
      </Anchor>
    ));

  return (
    <Section
      id="ledger"
      title={t('partner.credit.history')}
      aside={
        <Button component="a" href={exportUrl} download variant="default" size="xs" leftSection={<IconDownload size={14} aria-hidden />}>
          {t('partner.credit.export')}
        </Button>
      }
    >
      <div className={shopClasses.filters} role="group" aria-label={t('partner.credit.filters')}>
        <DateField
          label={t('partner.credit.from')}
          value={filter.from}
          max={filter.to}
          onChange={(from) => {
            onFilterChange((current) => ({ ...current, from }));
          }}
        />
        <DateField
          label={t('partner.credit.to')}
          value={filter.to}
          min={filter.from}
          onChange={(to) => {
            onFilterChange((current) => ({ ...current, to }));
          }}
        />
        <NativeSelect
          label={t('partner.credit.type')}
          value={filter.type}
          data={[
            { value: '', label: t('partner.credit.allTypes') },
            ...CREDIT_ENTRY_TYPES.map((type) => ({ value: type, label: t(`partner.credit.types.${type}`) })),
          ]}
          onChange={(event) => {
            const type = event.currentTarget.value as CreditEntryType | '';
            onFilterChange((current) => ({ ...current, type }));
          }}
        />
      </div>
      {ledger.isPending ? (
        <Stack gap="sm" aria-busy="true">
          <Skeleton height={44} radius="md" />
          <Skeleton height={44} radius="md" />
        </Stack>
      ) : ledger.isError ? (
        <LoadFailed error={ledger.error} onRetry={() => void ledger.refetch()} />
      ) : entries.length === 0 ? (
        <Text c="dimmed" fz="sm" ta="center" py="md">
          {t('partner.credit.none')}
        </Text>
      ) : (
        <table className={accountClasses.table} data-testid="credit-ledger">
          <thead>
            <tr>
              <th scope="col">{t('partner.credit.entry')}</th>
              <th scope="col">{t('partner.credit.date')}</th>
              <th scope="col">{t('partner.credit.type')}</th>
              <th scope="col" className={shopClasses.numeric}>
                {t('partner.credit.amount')}
              </th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id} data-testid="credit-entry">
                <td>
                  <Text fz="sm" fw={500} className={accountClasses.breakable}>
                    {entry.description}
                  </Text>
                  {entry.invoice_id ? linkTo(entry.invoice_id) : null}
                </td>
                <td data-label={t('partner.credit.date')}>
                  <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time>
                </td>
                <td data-label={t('partner.credit.type')}>
                  <Badge color={TYPE_COLOR[entry.type]} variant="light" radius="sm" className={classes.badge}>
                    {t(`partner.credit.types.${entry.type}`)}
                  </Badge>
                </td>
                <td
                  data-label={t('partner.credit.amount')}
                  className={`${shopClasses.numeric} ${entry.amount.amount > 0 ? shopClasses.positive : ''}`}
                >
                  {entry.amount.amount > 0 ? '+' : ''}
                  {entry.amount.formatted}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <LoadMore pages={ledger} label={t('partner.credit.more')} />
    </Section>
  );
}
