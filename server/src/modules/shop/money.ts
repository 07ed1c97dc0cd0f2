import { vatOf, type Money, type Price } from '@berth/contracts';

// Building a NumberFormat costs more than the rest of presenting a price: one per language and currency.
const formats = new Map<string, Intl.NumberFormat>();

/** Minor units (cents) formatted in the reader's language: "€12.10", "12,10 €", "12,10 €". */
export function formatMoney(amount: number, currency: string, language: string): string {
  const key = `${language}:${currency}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, { style: 'currency', currency });
    formats.set(key, format);
  }
  return format.format(amount / 100);
}

export const money = (amount: number, currency: string, language: string): Money => ({
  amount,
  currency,
  formatted: formatMoney(amount, currency, language),
});

/** VAT on a net amount, rounded half away from zero to the minor unit; rates in basis points (2100 = 21 %). */
export { vatOf };

export const price = (net: number, rateBp: number, currency: string, language: string): Price => {
  const vat = vatOf(net, rateBp);
  return { net: money(net, currency, language), vat: money(vat, currency, language), gross: money(net + vat, currency, language) };
};

/** Percent with up to two decimals <-> basis points. */
export const percentToBp = (percent: number): number => Math.round(percent * 100);
export const bpToPercent = (bp: number): number => bp / 100;

/** A share of an amount in basis points, rounded down (commission, percent discounts never overpay). */
export const shareOf = (amount: number, bp: number): number => Math.floor((amount * bp) / 10_000);

/** `date` plus whole months in UTC, clamped to the month's last day (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(date: Date, months: number): Date {
  const result = new Date(date.getTime());
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}
