import { currentLanguage } from '../../i18n/i18n.ts';
import { numberFormat } from '../../components/intlFormats.ts';

/** Minor units of a currency (cents) as people read them, in the UI language: "€12.10". */
export function formatMoney(minor: number, currency: string): string {
  try {
    const format = numberFormat(currentLanguage(), { style: 'currency', currency });
    const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(minor / 10 ** digits);
  } catch {
    // Not an ISO 4217 code (e.g. a bank statement line): the number and what was written.
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
}

/** The symbol of a currency in the UI language ("€" for EUR), for an amount field's suffix. */
export function currencySymbol(currency: string): string {
  try {
    const part = numberFormat(currentLanguage(), { style: 'currency', currency })
      .formatToParts(0)
      .find((item) => item.type === 'currency');
    return part?.value ?? currency;
  } catch {
    return currency;
  }
}

/** How many minor units one whole unit has (100 for EUR, 1 for JPY). */
export function minorPerUnit(currency: string): number {
  try {
    return 10 ** (numberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2);
  } catch {
    return 100;
  }
}

/** A whole amount without decimals ("€250"), for suggested amounts. */
export function formatWhole(units: number, currency: string): string {
  try {
    return numberFormat(currentLanguage(), { style: 'currency', currency, maximumFractionDigits: 0 }).format(units);
  } catch {
    return `${units} ${currency}`;
  }
}
