import { currentLanguage } from '../../../i18n/i18n.ts';
import { numberFormat } from '../../../components/intlFormats.ts';

const UNITS: [Intl.NumberFormatOptions['unit'], number][] = [
  ['week', 604_800],
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
];

/** A TTL or SOA timer in its largest whole unit ("1 hr", "14 days", "90 sec"), in the UI language. */
export function formatDuration(seconds: number): string {
  const language = currentLanguage();
  for (const [unit, size] of UNITS) {
    if (seconds >= size && seconds % size === 0) {
      return numberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(seconds / size);
    }
  }
  return numberFormat(language, { style: 'unit', unit: 'second', unitDisplay: 'long' }).format(seconds);
}
