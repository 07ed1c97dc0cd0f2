import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { periodLabel } from './periods.ts';
import shopClasses from './Shop.module.css';

interface PeriodSelectProps {
  label: string;
  periods: readonly number[];
  value: number;
  disabled?: boolean;
  /** Show the label (a form field) or keep it for screen readers only (a table cell). */
  visibleLabel?: boolean;
  onChange: (months: number) => void;
}

/** A billing period picker (native select: one tap on phones, no portal to escape a table). */
export function PeriodSelect({ label, periods, value, disabled, visibleLabel = false, onChange }: PeriodSelectProps) {
  const { t } = useTranslation();
  return (
    <NativeSelect
      className={visibleLabel ? undefined : shopClasses.periodSelect}
      label={visibleLabel ? label : undefined}
      aria-label={visibleLabel ? undefined : label}
      size="sm"
      value={String(value)}
      disabled={disabled}
      data={periods.map((months) => ({ value: String(months), label: periodLabel(t, months) }))}
      onChange={(event) => {
        onChange(Number(event.currentTarget.value));
      }}
    />
  );
}
