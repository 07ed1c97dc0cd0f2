import { useState } from 'react';
import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { HostingPlan } from '@berth/contracts';
import { usePlanDelete } from '../../../api/catalogue.ts';
import { cx } from '../../../components/cx.ts';
import classes from '../../Pages.module.css';
import accountClasses from '../../account/Account.module.css';
import { DeleteConfirm } from './DeleteConfirm.tsx';
import catalogueClasses from './Catalogue.module.css';
import { PriceCell } from './PriceCell.tsx';
import { RowActions } from './RowActions.tsx';

/** The tenant's hosting plans, inactive ones included; a card per plan on a phone. */
export function PlansTable({ plans, onEdit }: { plans: HostingPlan[]; onEdit: (plan: HostingPlan) => void }) {
  const { t } = useTranslation();
  const remove = usePlanDelete();
  const [deleting, setDeleting] = useState<HostingPlan | null>(null);

  if (plans.length === 0) {
    return (
      <Text c="dimmed" fz="sm" ta="center" py="md">
        {t('catalogue.plans.none')}
      </Text>
    );
  }
  return (
    <>
      <table className={accountClasses.table} data-testid="plan-list">
        <thead>
          <tr>
            <th scope="col">{t('catalogue.plans.name')}</th>
            <th scope="col">{t('catalogue.plans.monthly')}</th>
            <th scope="col">{t('catalogue.plans.yearly')}</th>
            <th scope="col">{t('catalogue.status')}</th>
            <th scope="col">
              <span className={accountClasses.visuallyHidden}>{t('catalogue.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {plans.map((plan) => (
            <tr key={plan.id} data-testid="plan-row">
              <td>
                <Text fw={650} fz="sm">
                  {plan.title}
                </Text>
                {plan.description ? (
                  <Text fz="xs" c="dimmed">
                    {plan.description}
                  </Text>
                ) : null}
              </td>
              <td data-label={t('catalogue.plans.monthly')}>
                <PriceCell price={plan.monthly} />
              </td>
              <td data-label={t('catalogue.plans.yearly')}>
                <PriceCell price={plan.yearly} />
              </td>
              <td data-label={t('catalogue.status')} className={catalogueClasses.nowrap}>
                <Badge color={plan.active ? 'green' : 'gray'} variant="dot" radius="sm" className={cx(classes.badge, catalogueClasses.badge)}>
                  {plan.active ? t('catalogue.active') : t('catalogue.inactive')}
                </Badge>
              </td>
              <td className={accountClasses.actionCell}>
                <RowActions
                  name={plan.title}
                  onEdit={() => {
                    onEdit(plan);
                  }}
                  onDelete={() => {
                    setDeleting(plan);
                  }}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <DeleteConfirm
        target={deleting ? { id: deleting.id, name: deleting.title } : null}
        title={t('catalogue.plans.deleteTitle', { name: deleting?.title ?? '' })}
        body={t('catalogue.plans.deleteBody')}
        remove={remove}
        onClose={() => {
          setDeleting(null);
        }}
      />
    </>
  );
}
