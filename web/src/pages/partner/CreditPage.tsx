import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Badge, Button, Group, NativeSelect, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconDownload, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CREDIT_ENTRY_TYPES, type CreditEntryType } from '@berth/contracts';
import { creditExportUrl, useCreditLedger, type CreditFilter } from '../../api/credit.ts';
import { formatDateTime } from '../../components/formatDate.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { AddCreditDialog } from '../../shell/AddCreditDialog.tsx';
import { useSignedInUser } from '../../shell/useSignedInUser.ts';
import { PageHeader, Section } from '../PageHeader.tsx';
import classes from '../Pages.module.css';
import accountClasses from '../account/Account.module.css';
import { LoadFailed } from '../shop/LoadFailed.tsx';
import shopClasses from '../shop/Shop.module.css';
import { CreditAdjustmentForm } from './CreditAdjustmentForm.tsx';
import partnerClasses from './Partner.module.css';

const TYPE_COLOR: Record<CreditEntryType, string> = { top_up: 'harbor', purchase: 'gray', commission: 'green', manual: 'orange', refund: 'grape' };

/** /system/partner/credit: the balance, the ledger with filters and CSV export, adding credit. */
export function CreditPage() {
  const { t } = useTranslation();
  usePageTitle(t('partner.credit.title'));
  const { user } = useSignedInUser();
  const [adding, setAdding] = useState(false);
  const [filter, setFilter] = useState<CreditFilter>({ from: '', to: '', type: '' });
  const ledger = useCreditLedger(filter);
  const first = ledger.data?.pages[0]?.data;
  const entries = ledger.data?.pages.flatMap((page) => page.data.entries) ?? [];
  const isAdmin = user.role === 'super_admin' || user.role === 'host_admin';

  return (
    <div className={classes.page}>
      <PageHeader
        title={t('partner.credit.title')}
        description={t('partner.credit.description')}
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
      <Section id="balance" title={t('partner.credit.balance')}>
        {first ? (
          <Stack gap={4}>
            <Text className={partnerClasses.balance} data-testid="credit-balance">
              {first.balance.formatted}
            </Text>
            <Text fz="sm" c="dimmed">
              {t('partner.credit.limits', { min: first.top_up.min.formatted, max: first.top_up.max.formatted })}
            </Text>
          </Stack>
        ) : ledger.isError ? null : (
          <Skeleton height={40} width={180} radius="md" />
        )}
      </Section>

      <Section
        id="ledger"
        title={t('partner.credit.history')}
        aside={
          <Button
            component="a"
            href={creditExportUrl(filter)}
            download
            variant="default"
            size="xs"
            leftSection={<IconDownload size={14} aria-hidden />}
          >
            {t('partner.credit.export')}
          </Button>
        }
      >
        <div className={shopClasses.filters} role="group" aria-label={t('partner.credit.filters')}>
          <TextInput
            type="date"
            label={t('partner.credit.from')}
            value={filter.from}
            onChange={(event) => {
              const from = event.currentTarget.value;
              setFilter((current) => ({ ...current, from }));
            }}
          />
          <TextInput
            type="date"
            label={t('partner.credit.to')}
            value={filter.to}
            onChange={(event) => {
              const to = event.currentTarget.value;
              setFilter((current) => ({ ...current, to }));
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
              setFilter((current) => ({ ...current, type }));
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
                    {entry.invoice_id ? (
                      <Anchor component={Link} to={`/account/invoices/${entry.invoice_id}`} fz="xs">
                        {t('partner.credit.invoice')}
                      </Anchor>
                    ) : null}
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
        {ledger.hasNextPage ? (
          <Group justify="center">
            <Button variant="default" loading={ledger.isFetchingNextPage} onClick={() => void ledger.fetchNextPage()}>
              {t('partner.credit.more')}
            </Button>
          </Group>
        ) : null}
      </Section>

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
