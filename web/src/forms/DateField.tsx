import type { ReactNode } from 'react';
import { DateInput } from '@mantine/dates';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import 'dayjs/locale/cs';
import 'dayjs/locale/de';
import '@mantine/dates/styles.css';
import { useTranslation } from 'react-i18next';
import { dateFormatOf, firstDayOfWeekOf } from './dateFormat.ts';

dayjs.extend(customParseFormat);

interface DateFieldProps {
  label: string;
  /** `YYYY-MM-DD`, or '' for none. */
  value: string;
  onChange: (value: string) => void;
  description?: ReactNode;
  error?: ReactNode;
  /** The first and last days that may be picked (`YYYY-MM-DD`). */
  min?: string | undefined;
  max?: string | undefined;
  leftSection?: ReactNode;
  className?: string | undefined;
  name?: string | undefined;
}

/**
 * A date as the user's language writes it (28. 11. 2026, 28.11.2026, 11/28/2026) with a calendar
 * in that language: the browser's own date input follows the browser's language, not the
 * panel's. The value stays `YYYY-MM-DD`; typing an ISO date works in every language too.
 */
export function DateField({ value, onChange, min, max, ...rest }: DateFieldProps) {
  // From react-i18next, not i18n.ts: this module's chunk must not take the app's i18n with it (vite.config.ts).
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? 'en';
  const format = dateFormatOf(language);
  return (
    <DateInput
      {...rest}
      value={value || null}
      onChange={(picked) => {
        onChange(picked ?? '');
      }}
      locale={language}
      firstDayOfWeek={firstDayOfWeekOf(language)}
      valueFormat={format}
      dateParser={(input) => {
        const text = input.trim();
        const parsed = [format, 'YYYY-MM-DD'].map((pattern) => dayjs(text, pattern, true)).find((day) => day.isValid());
        return parsed ? parsed.format('YYYY-MM-DD') : null;
      }}
      minDate={min || undefined}
      maxDate={max || undefined}
      clearable
      clearButtonProps={{ 'aria-label': t('app.clearField', { label: rest.label }) }}
      popoverProps={{ withinPortal: true }}
    />
  );
}
