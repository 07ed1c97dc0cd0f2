import { currentLanguage } from '../i18n/i18n.ts';
import { dateTimeFormat, relativeTimeFormat } from './intlFormats.ts';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 minutes ago", "Yesterday", in the UI language; "Now" under a minute. Capitalised for a cell. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const language = currentLanguage();
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const format = relativeTimeFormat(language, { numeric: 'auto' });
  let text = format.format(0, 'second');
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) {
      text = format.format(Math.round(seconds / size), unit);
      break;
    }
  }
  return text.charAt(0).toLocaleUpperCase(language) + text.slice(1);
}

/** A date with time, e.g. "22 Nov 2025, 14:03", in the UI language. */
export function formatDateTime(iso: string): string {
  return dateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** A date without time, e.g. "22 Nov 2025", in the UI language. */
export function formatDate(iso: string): string {
  return dateTimeFormat(currentLanguage(), { dateStyle: 'medium' }).format(new Date(iso));
}
