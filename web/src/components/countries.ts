import { displayNames } from './intlFormats.ts';

/** Countries offered for the billing address: the EU's, its neighbours' and the largest markets. */
export const COUNTRIES = [
  'AT',
  'AU',
  'BE',
  'BG',
  'CA',
  'CH',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GB',
  'GR',
  'HR',
  'HU',
  'IE',
  'IS',
  'IT',
  'LI',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'NO',
  'PL',
  'PT',
  'RO',
  'RS',
  'SE',
  'SI',
  'SK',
  'TR',
  'UA',
  'US',
] as const;

/**
 * The countries as select options named in the reader's language, sorted by name; `current` is
 * kept when it is not in the list, and `emptyLabel` adds a first "none" option.
 */
export function countryOptions(language: string, current: string, emptyLabel?: string): { value: string; label: string }[] {
  const names = displayNames(language, { type: 'region' });
  const codes: string[] = [...COUNTRIES];
  if (current && !codes.includes(current)) codes.push(current);
  return [
    ...(emptyLabel !== undefined ? [{ value: '', label: emptyLabel }] : []),
    ...codes.map((code) => ({ value: code, label: names.of(code) ?? code })).sort((a, b) => a.label.localeCompare(b.label, language)),
  ];
}
