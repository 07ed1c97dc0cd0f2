import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Anchor, Button, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconPlus, IconSearch, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Customer } from '@berth/contracts';
import { useCustomerList } from '../../../api/customers.ts';
import { formatDate } from '../../../components/formatDate.ts';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { PageHeader, Section } from '../../PageHeader.tsx';
import { CustomerStatus } from './CustomerStatus.tsx';
import classes from '../../Pages.module.css';
import customerClasses from './Customers.module.css';
import { EmptyState, LoadingRows, LoadMore } from '../../../components/ListStates.tsx';
import { LoadFailed } from '../../../components/LoadFailed.tsx';

const SEARCH_DELAY_MS = 250;

/** /system/customers: search by e-mail or name (kept in the URL as `?q=`), keyset pages by e-mail. */
export function CustomerListPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState(params.get('q') ?? '');
  const [q] = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const customers = useCustomerList(q);
  usePageTitle(t('customers.title'));

  const onSearch = (value: string) => {
    setSearch(value);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value.trim()) next.set('q', value.trim());
        else next.delete('q');
        return next;
      },
      { replace: true },
    );
  };

  const rows = customers.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <div className={classes.page}>
      <PageHeader
        title={t('customers.title')}
        description={t('customers.description')}
        actions={
          <>
            <Button
              component="a"
              href={`/api/system/customers/export.csv${q ? `?${new URLSearchParams({ q }).toString()}` : ''}`}
              download
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
            >
              {t('customers.export')}
            </Button>
            <Button component={Link} to="/system/customers/create" leftSection={<IconPlus size={16} aria-hidden />}>
              {t('customers.create.action')}
            </Button>
          </>
        }
      />
      <Section id="customers" title={t('customers.list.title')}>
        <TextInput
          type="search"
          label={t('customers.list.search')}
          placeholder={t('customers.list.searchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => {
            onSearch(event.currentTarget.value);
          }}
          className={customerClasses.search}
        />
        {customers.isPending ? (
          <LoadingRows height={52} />
        ) : customers.isError ? (
          <LoadFailed error={customers.error} onRetry={() => void customers.refetch()} />
        ) : rows.length === 0 ? (
          <EmptyState
            icon={<IconUsers size={24} stroke={1.6} />}
            title={q ? t('customers.list.noMatchTitle') : t('customers.list.emptyTitle')}
          >
            {q ? t('customers.list.noMatch', { q }) : t('customers.list.empty')}
          </EmptyState>
        ) : (
          <>
            <table className={customerClasses.table} aria-busy={customers.isFetching || undefined}>
              <thead>
                <tr>
                  <th scope="col">{t('customers.list.customer')}</th>
                  <th scope="col">{t('customers.list.status')}</th>
                  <th scope="col">{t('customers.list.domains')}</th>
                  <th scope="col">{t('customers.list.created')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((customer) => (
                  <CustomerRow key={customer.id} customer={customer} />
                ))}
              </tbody>
            </table>
            <LoadMore pages={customers} label={t('customers.list.loadMore')} />
          </>
        )}
      </Section>
    </div>
  );
}

function CustomerRow({ customer }: { customer: Customer }) {
  const { t } = useTranslation();
  const name = customer.contact.display_name.trim();
  return (
    <tr>
      <td className={customerClasses.who}>
        {/* The name opens the customer; the whole row is clickable for the mouse. */}
        <Anchor component={Link} to={`/system/customers/${customer.id}`} fw={600} fz="sm" className={customerClasses.open}>
          {name || customer.email}
        </Anchor>
        {name ? (
          <Text fz="xs" c="dimmed" className={customerClasses.email}>
            {customer.email}
          </Text>
        ) : null}
      </td>
      <td className={customerClasses.status}>
        <CustomerStatus customer={customer} />
      </td>
      <td className={customerClasses.domains} data-label={t('customers.list.domains')}>
        {customer.domains}
      </td>
      <td className={customerClasses.created} data-label={t('customers.list.created')}>
        <time dateTime={customer.created_at}>{formatDate(customer.created_at)}</time>
      </td>
    </tr>
  );
}
