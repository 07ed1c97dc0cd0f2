import { Link } from 'react-router';
import { Anchor, Badge, Button, Text } from '@mantine/core';
import { IconBuildingStore, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TenantDetail } from '@berth/contracts';
import { useTenantList } from '../../../api/tenants.ts';
import { formatDate } from '../../../components/formatDate.ts';
import { usePageTitle } from '../../../components/usePageTitle.ts';
import { PageHeader, Section } from '../../PageHeader.tsx';
import { ShopBadge } from './ShopBadge.tsx';
import classes from '../../Pages.module.css';
import tenantClasses from './Tenants.module.css';
import { EmptyState, LoadingRows, LoadMore } from '../../../components/ListStates.tsx';
import { LoadFailed } from '../../../components/LoadFailed.tsx';

/** /system/tenants: every brand the panel runs, with its host names, shop and host admins. */
export function TenantListPage() {
  const { t } = useTranslation();
  const list = useTenantList();
  usePageTitle(t('tenants.list.title'));
  const tenants = list.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <div className={classes.page}>
      <PageHeader
        title={t('tenants.list.title')}
        description={t('tenants.list.description')}
        actions={
          <Button component={Link} to="/system/tenants/new" leftSection={<IconPlus size={16} aria-hidden />}>
            {t('tenants.list.create')}
          </Button>
        }
      />
      <Section
        id="tenants"
        title={t('tenants.list.section')}
        aside={
          list.isSuccess ? (
            <Text fz="sm" c="dimmed">
              {t('tenants.list.count', { count: tenants.length })}
              {list.hasNextPage ? '+' : ''}
            </Text>
          ) : null
        }
      >
        {list.isPending ? (
          <LoadingRows height={52} />
        ) : list.isError ? (
          <LoadFailed error={list.error} onRetry={() => void list.refetch()} />
        ) : tenants.length === 0 ? (
          <EmptyState icon={<IconBuildingStore size={24} stroke={1.6} />} title={t('tenants.list.empty')} />
        ) : (
          <>
            <table className={tenantClasses.table}>
              <thead>
                <tr>
                  <th scope="col">{t('tenants.fields.title')}</th>
                  <th scope="col">{t('tenants.fields.hosts')}</th>
                  <th scope="col">{t('tenants.fields.shop')}</th>
                  <th scope="col">{t('tenants.fields.language')}</th>
                  <th scope="col">{t('tenants.fields.admins')}</th>
                  <th scope="col">{t('tenants.fields.created')}</th>
                </tr>
              </thead>
              <tbody>
                {tenants.map((tenant) => (
                  <TenantRow key={tenant.id} tenant={tenant} />
                ))}
              </tbody>
            </table>
            <LoadMore pages={list} label={t('tenants.list.more')} />
          </>
        )}
      </Section>
    </div>
  );
}

function TenantRow({ tenant }: { tenant: TenantDetail }) {
  const { t } = useTranslation();
  return (
    <tr data-testid={`tenant-row-${tenant.id}`}>
      <td className={tenantClasses.primary}>
        <Anchor component={Link} to={`/system/tenants/${tenant.id}`} fw={600} className={tenantClasses.breakable}>
          {tenant.title}
        </Anchor>
        <Text fz="xs" c="dimmed">
          {t('tenants.list.id', { id: tenant.id })}
        </Text>
      </td>
      <td data-label={t('tenants.fields.hosts')}>
        <span className={tenantClasses.hostList}>
          {tenant.hosts.map((host) => (
            <span key={host} className={tenantClasses.mono}>
              {host}
            </span>
          ))}
        </span>
      </td>
      <td data-label={t('tenants.fields.shop')}>
        <ShopBadge hostPurchases={tenant.config.host_purchases} />
      </td>
      <td data-label={t('tenants.fields.language')}>{t(`language.${tenant.default_language as 'en' | 'de' | 'cs'}`)}</td>
      <td data-label={t('tenants.fields.admins')}>
        <Badge variant="light" color={tenant.admins.length ? 'harbor' : 'gray'} radius="sm" className={tenantClasses.countBadge}>
          {tenant.admins.length}
        </Badge>
      </td>
      <td data-label={t('tenants.fields.created')} className={tenantClasses.nowrap}>
        <time dateTime={tenant.created_at}>{formatDate(tenant.created_at)}</time>
      </td>
    </tr>
  );
}
