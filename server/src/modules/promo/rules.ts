import type { ProductKind } from '@berth/contracts';
import type { MessageKey } from '../../i18n/messages.ts';
import { formatMoney } from '../shop/money.ts';
import type { PromoRow } from './queries.ts';

export interface PromoProblem {
  key: MessageKey;
  params?: Record<string, string | number>;
}

/** What a promo looks at on a line. */
export interface DiscountableLine {
  kind: ProductKind;
  planId: number | null;
  tld: string | null;
  /** Net before discount, minor units. */
  net: number;
}

const formatDate = (date: Date | string, language: string): string =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(date));

/** Why the code cannot be used by this customer now, or null. */
export function promoProblem(promo: PromoRow, now: Date, language: string, redeemedBefore: boolean): PromoProblem | null {
  if (!promo.active) return { key: 'promo.inactive' };
  if (promo.valid_from && new Date(promo.valid_from) > now)
    return { key: 'promo.not_yet', params: { date: formatDate(promo.valid_from, language) } };
  if (promo.valid_until && new Date(promo.valid_until) <= now)
    return { key: 'promo.expired', params: { date: formatDate(promo.valid_until, language) } };
  if (promo.max_uses !== null && promo.uses >= promo.max_uses) return { key: 'promo.used_up' };
  if (promo.once_per_customer && redeemedBefore) return { key: 'promo.already_used' };
  return null;
}

/** The product restriction: every non-empty list must admit the line. */
export function qualifies(promo: Pick<PromoRow, 'kinds' | 'plan_ids' | 'tlds'>, line: Omit<DiscountableLine, 'net'>): boolean {
  if (promo.kinds.length && !promo.kinds.includes(line.kind)) return false;
  if (line.kind === 'hosting') return !promo.plan_ids.length || (line.planId !== null && promo.plan_ids.includes(line.planId));
  return !promo.tlds.length || (line.tld !== null && promo.tlds.includes(line.tld));
}

/**
 * The discount on each line: a percentage of each qualifying line (rounded down), or a fixed
 * amount spread over the qualifying lines in order, never more than they cost.
 */
export function discountsFor(promo: Pick<PromoRow, 'kind' | 'value' | 'kinds' | 'plan_ids' | 'tlds'>, lines: DiscountableLine[]): number[] {
  const value = Number(promo.value);
  if (promo.kind === 'percent') {
    return lines.map((line) => (qualifies(promo, line) ? Math.floor((line.net * Math.min(value, 100)) / 100) : 0));
  }
  let left = value;
  return lines.map((line) => {
    if (!qualifies(promo, line) || left <= 0) return 0;
    const take = Math.min(left, line.net);
    left -= take;
    return take;
  });
}

/** "10 %" or "€5.00" in the reader's language. */
export const promoLabel = (promo: Pick<PromoRow, 'kind' | 'value'>, currency: string, language: string): string =>
  promo.kind === 'percent'
    ? new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 }).format(Number(promo.value) / 100)
    : formatMoney(Number(promo.value), currency, language);
