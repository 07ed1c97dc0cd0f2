import type { TFunction } from 'i18next';
import type { ProductKind } from '@berth/contracts';

/** "1 month", "1 year", "3 years": a billing period in months as people say it. */
export function periodLabel(t: TFunction, months: number): string {
  return months % 12 === 0 ? t('shop.period.years', { count: months / 12 }) : t('shop.period.months', { count: months });
}

/** "Domain registration", "Hosting plan", ... */
export function kindLabel(t: TFunction, kind: ProductKind | 'credit'): string {
  return t(`shop.kind.${kind}`);
}
