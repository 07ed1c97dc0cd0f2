import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import tenantClasses from './Tenants.module.css';

/** How a tenant sells: through Berth's shop, or through its own external cart (host_purchases). */
export function ShopBadge({ hostPurchases }: { hostPurchases: string | null }) {
  const { t } = useTranslation();
  if (!hostPurchases) {
    return (
      <Badge variant="light" color="gray" radius="sm" className={tenantClasses.badge}>
        {t('tenants.shop.berth')}
      </Badge>
    );
  }
  return (
    <span className={tenantClasses.shop}>
      <Badge variant="light" color="orange" radius="sm" className={tenantClasses.badge}>
        {t('tenants.shop.external')}
      </Badge>
      <Text component="span" fz="xs" c="dimmed" className={tenantClasses.mono}>
        {hostPurchases}
      </Text>
    </span>
  );
}
