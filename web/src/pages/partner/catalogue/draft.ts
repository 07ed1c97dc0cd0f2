import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { ApiError } from '../../../api/client.ts';
import { createErrorMap, describeError } from '../../../forms/validation.ts';
import { translateServerText } from '../../../i18n/i18n.ts';
import { minorPerUnit } from '../../shop/money.ts';

/* What the catalogue's forms share: amounts typed in major units, sent in minor units, and errors per field. */

/** A number field's value: a number, or '' while empty. */
export type Amount = number | string;

/** "12.90" € → 1290; an empty or unreadable field gives NaN so that the schema names the field. */
export function toMinor(value: Amount, currency: string): number {
  if (value === '') return NaN;
  return Math.round(Number(value) * minorPerUnit(currency));
}

/** 1290 → 12.9 (the field shows it with the currency's decimals). */
export function toMajor(minor: number, currency: string): number {
  return minor / minorPerUnit(currency);
}

/** The decimals a currency's amounts take (2 for EUR). */
export function decimalsOf(currency: string): number {
  return Math.round(Math.log10(minorPerUnit(currency)));
}

/** Net plus VAT, rounded as the server rounds it (the rate in basis points, the VAT to the minor unit). */
export function grossOf(net: number, vatRate: number): number {
  return net + Math.round((net * Math.round(vatRate * 100)) / 10_000);
}

export type FieldErrors = Record<string, string>;

type Checked<T> = { data: T; errors: null } | { data: null; errors: FieldErrors };

/** Checks a payload with the contract's schema; the first message per top-level field. */
export function check<S extends z.ZodType>(schema: S, payload: unknown, t: TFunction): Checked<z.output<S>> {
  const parsed = schema.safeParse(payload, { error: createErrorMap(t) });
  if (parsed.success) return { data: parsed.data, errors: null };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= translateServerText(issue.message);
  }
  return { data: null, errors };
}

/** A failed save: the server's 422 texts per field, or one sentence for the form. */
export function errorsOfFailure(error: unknown, t: TFunction): { fields: FieldErrors; form: string | null } {
  if (error instanceof ApiError && error.isValidation && Object.keys(error.fieldErrors).length > 0) {
    const fields: FieldErrors = {};
    for (const [path, texts] of Object.entries(error.fieldErrors)) {
      const field = path.split('.')[0] ?? path;
      fields[field] = [fields[field], ...texts.map(translateServerText)].filter(Boolean).join(' ');
    }
    return { fields, form: null };
  }
  return { fields: {}, form: describeError(error, t) };
}
