import { useState } from 'react';
import { LoadMore } from '../../components/ListStates.tsx';
import { Badge, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { Promo } from '@berth/contracts';
import { usePromoList } from '../../api/promo.ts';
import { formatDate } from '../../components/formatDate.ts';
import { usePageTitle } from '../../components/usePageTitle.ts';
import { PageHeader, Section } from '../PageHeader.tsx';
import classes from '../Pages.module.css';
import accountClasses from '../account/Account.module.css';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { kindLabel } from '../shop/periods.ts';
import { PromoDialog } from './PromoDialog.tsx';
import { NotAllowed } from '../system/tenants/NotAllowed.tsx';
import { useMay } from '../../shell/useSignedInUser.ts';

/** /system/partner/promo: the partner's promo codes, their rules and how often they were used. */
export function PromoPage() {
  const may = useMay();
  if (!may('promo.manage')) return <PromoNotAllowed />;
  return <PromoCodes />;
}

function PromoNotAllowed() {
  const { t } = useTranslation();
  return <NotAllowed title={t('partner.promo.title')} body={t('partner.promo.notAllowed')} />;
}

function PromoCodes() {
  const { t } = useTranslation();
  usePageTitle(t('partner.promo.title'));
  const list = usePromoList();
  const [editing, setEditing] = useState<Promo | 'new' | null>(null);
  const promos = list.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <div className={classes.page}>
      <PageHeader
        title={t('partner.promo.title')}
        description={t('partner.promo.description')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => {
              setEditing('new');
            }}
          >
            {t('partner.promo.create')}
          </Button>
        }
      />
      <Section id="promo-codes" title={t('partner.promo.list')}>
        {list.isPending ? (
          <Stack gap="sm" aria-busy="true">
            <Skeleton height={44} radius="md" />
            <Skeleton height={44} radius="md" />
          </Stack>
        ) : list.isError ? (
          <LoadFailed error={list.error} onRetry={() => void list.refetch()} />
        ) : promos.length === 0 ? (
          <Text c="dimmed" fz="sm" ta="center" py="md">
            {t('partner.promo.none')}
          </Text>
        ) : (
          <table className={accountClasses.table} data-testid="promo-list">
            <thead>
              <tr>
                <th scope="col">{t('partner.promo.code')}</th>
                <th scope="col">{t('partner.promo.discount')}</th>
                <th scope="col">{t('partner.promo.validity')}</th>
                <th scope="col">{t('partner.promo.uses')}</th>
                <th scope="col">{t('partner.promo.appliesTo')}</th>
                <th scope="col">
                  <span className={accountClasses.visuallyHidden}>{t('partner.promo.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {promos.map((promo) => (
                <tr key={promo.id} data-testid="promo-row">
                  <td>
                    <Group gap="xs">
                      <Text fw={650} fz="sm" className={accountClasses.mono}>
                        {promo.code}
                      </Text>
                      {promo.active ? null : (
                        <Badge color="gray" variant="light" size="sm" radius="sm" className={classes.badge}>
                          {t('partner.promo.inactive')}
                        </Badge>
                      )}
                    </Group>
                  </td>
                  <td data-label={t('partner.promo.discount')}>{promo.label}</td>
                  <td data-label={t('partner.promo.validity')}>{validity(t, promo)}</td>
                  <td data-label={t('partner.promo.uses')}>
                    {promo.max_uses === null
                      ? t('partner.promo.usesUnlimited', { uses: promo.uses })
                      : t('partner.promo.usesOf', { uses: promo.uses, max: promo.max_uses })}
                    {promo.once_per_customer ? (
                      <Text fz="xs" c="dimmed">
                        {t('partner.promo.oncePerCustomer')}
                      </Text>
                    ) : null}
                  </td>
                  <td data-label={t('partner.promo.appliesTo')}>
                    <Text fz="sm">{restriction(t, promo)}</Text>
                  </td>
                  <td className={accountClasses.actionCell}>
                    <Button
                      size="xs"
                      variant="default"
                      leftSection={<IconPencil size={14} aria-hidden />}
                      aria-label={t('partner.promo.editNamed', { code: promo.code })}
                      onClick={() => {
                        setEditing(promo);
                      }}
                    >
                      {t('partner.promo.edit')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <LoadMore pages={list} label={t('partner.promo.more')} />
      </Section>
      <PromoDialog
        promo={editing}
        onClose={() => {
          setEditing(null);
        }}
      />
    </div>
  );
}

function validity(t: TFunction, promo: Promo): string {
  if (promo.valid_from && promo.valid_until) {
    return t('partner.promo.between', { from: formatDate(promo.valid_from), until: formatDate(promo.valid_until) });
  }
  if (promo.valid_from) return t('partner.promo.from', { from: formatDate(promo.valid_from) });
  if (promo.valid_until) return t('partner.promo.until', { until: formatDate(promo.valid_until) });
  return t('partner.promo.always');
}

function restriction(t: TFunction, promo: Promo): string {
  const parts: string[] = [];
  if (promo.kinds.length > 0) parts.push(promo.kinds.map((kind) => kindLabel(t, kind)).join(', '));
  if (promo.tlds.length > 0) parts.push(promo.tlds.map((tld) => `.${tld}`).join(', '));
  if (promo.plan_ids.length > 0) parts.push(t('partner.promo.plans', { count: promo.plan_ids.length }));
  return parts.length > 0 ? parts.join(' · ') : t('partner.promo.everything');
}
