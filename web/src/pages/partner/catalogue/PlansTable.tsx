import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { HostingPlan } from '@berth/contracts';
import { usePlanDelete } from '../../../api/catalogue.ts';
import { cx } from '../../../components/cx.ts';
import classes from '../../Pages.module.css';
import catalogueClasses from './Catalogue.module.css';
import { CatalogueTable } from './CatalogueTable.tsx';
import { PriceCell } from './PriceCell.tsx';
import { PlanLimits } from '../../shop/PlanLimits.tsx';

/** The tenant's hosting plans, inactive ones included; a card per plan on a phone. */
export function PlansTable({ plans, onEdit }: { plans: HostingPlan[]; onEdit: (plan: HostingPlan) => void }) {
  const { t } = useTranslation();
  const remove = usePlanDelete();
  return (
    <CatalogueTable
      rows={plans}
      testId="plan"
      empty={t('catalogue.plans.none')}
      head={{
        label: t('catalogue.plans.name'),
        cell: (plan) => (
          <>
            <Text fw={650} fz="sm">
              {plan.title}
            </Text>
            {plan.description ? (
              <Text fz="xs" c="dimmed">
                {plan.description}
              </Text>
            ) : null}
            <PlanLimits plan={plan} size="xs" />
          </>
        ),
      }}
      columns={[
        { label: t('catalogue.plans.monthly'), cell: (plan) => <PriceCell price={plan.monthly} /> },
        { label: t('catalogue.plans.yearly'), cell: (plan) => <PriceCell price={plan.yearly} /> },
        {
          label: t('catalogue.status'),
          className: catalogueClasses.nowrap,
          cell: (plan) => (
            <Badge color={plan.active ? 'green' : 'gray'} variant="dot" radius="sm" className={cx(classes.badge, catalogueClasses.badge)}>
              {plan.active ? t('catalogue.active') : t('catalogue.inactive')}
            </Badge>
          ),
        },
      ]}
      actionsLabel={t('catalogue.actions')}
      name={(plan) => plan.title}
      remove={remove}
      deleteTitle={(plan) => t('catalogue.plans.deleteTitle', { name: plan?.title ?? '' })}
      deleteBody={t('catalogue.plans.deleteBody')}
      onEdit={onEdit}
    />
  );
}
