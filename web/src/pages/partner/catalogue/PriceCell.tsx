import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Price } from '@berth/contracts';
import catalogueClasses from './Catalogue.module.css';

/** A price as a customer pays it (with VAT) and as the tenant books it (without). */
export function PriceCell({ price }: { price: Price }) {
  const { t } = useTranslation();
  return (
    <div className={catalogueClasses.nowrap}>
      <Text fz="sm" fw={600} data-testid="gross">
        {t('catalogue.gross', { amount: price.gross.formatted })}
      </Text>
      <Text fz="xs" c="dimmed" data-testid="net">
        {t('catalogue.net', { amount: price.net.formatted })}
      </Text>
    </div>
  );
}
