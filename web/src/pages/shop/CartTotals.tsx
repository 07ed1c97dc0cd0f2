import { useTranslation } from 'react-i18next';
import type { Totals } from '@berth/contracts';
import shopClasses from './Shop.module.css';

interface CartTotalsProps {
  totals: Totals;
  vatRate: number;
  promo: { code: string } | null;
}

/** Subtotal, the promo's discount, net, VAT and the total to pay. */
export function CartTotals({ totals, vatRate, promo }: CartTotalsProps) {
  const { t } = useTranslation();
  return (
    <dl className={shopClasses.totals} data-testid="totals">
      <dt>{t('shop.totals.subtotal')}</dt>
      <dd>{totals.subtotal.formatted}</dd>
      {totals.discount.amount !== 0 ? (
        <>
          <dt>{promo ? t('shop.totals.discountCode', { code: promo.code }) : t('shop.totals.discount')}</dt>
          <dd className={shopClasses.positive} data-testid="totals-discount">
            −{totals.discount.formatted.replace(/^-|^−/, '')}
          </dd>
        </>
      ) : null}
      <dt>{t('shop.totals.net')}</dt>
      <dd>{totals.net.formatted}</dd>
      <dt>{t('shop.totals.vat', { rate: vatRate })}</dt>
      <dd>{totals.vat.formatted}</dd>
      <dt className={shopClasses.grandTotal}>{t('shop.totals.gross')}</dt>
      <dd className={shopClasses.grandTotal} data-testid="totals-gross">
        {totals.gross.formatted}
      </dd>
    </dl>
  );
}
