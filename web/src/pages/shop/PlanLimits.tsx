import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { HostingPlan } from '@berth/contracts';

/** "1 domain · 5 mailboxes · 10 GB disk space": what a plan includes, as the server enforces it. */
export function PlanLimits({
  plan,
  size = 'sm',
}: {
  plan: Pick<HostingPlan, 'max_domains' | 'max_mailboxes' | 'disk_gb'>;
  /** Smaller in a table row, beside the plan's description. */
  size?: 'sm' | 'xs';
}) {
  const { t } = useTranslation();
  const parts = [
    plan.max_domains === null ? t('shop.limits.domainsUnlimited') : t('shop.limits.domains', { count: plan.max_domains }),
    plan.max_mailboxes === null ? t('shop.limits.mailboxesUnlimited') : t('shop.limits.mailboxes', { count: plan.max_mailboxes }),
    plan.disk_gb === null ? t('shop.limits.diskUnlimited') : t('shop.limits.disk', { count: plan.disk_gb }),
  ];
  return (
    <Text fz={size} fw={500} data-testid="plan-limits">
      {parts.join(' · ')}
    </Text>
  );
}
