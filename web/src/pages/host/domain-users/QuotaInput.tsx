import { forwardRef } from 'react';
import { NumberInput, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DOMAIN_USER_QUOTA_MAX_MB } from '@berth/contracts';
import { formatQuota } from './accountForms.ts';

interface QuotaInputProps {
  /** Whole MB; NaN while the field is empty. */
  value: number;
  onChange: (mb: number) => void;
  onBlur: () => void;
  error: string | undefined;
  autoFocus?: boolean;
}

/** The mailbox/FTP quota in MB, with what it amounts to (e.g. "= 5 GB") under it. */
export const QuotaInput = forwardRef<HTMLInputElement, QuotaInputProps>(function QuotaInput(
  { value, onChange, onBlur, error, autoFocus },
  ref,
) {
  const { t } = useTranslation();
  const valid = Number.isInteger(value) && value >= 1 && value <= DOMAIN_USER_QUOTA_MAX_MB;
  return (
    <NumberInput
      ref={ref}
      label={t('domainUsers.quota.label')}
      description={valid ? t('domainUsers.quota.hintWith', { size: formatQuota(value) }) : t('domainUsers.quota.hint')}
      value={Number.isNaN(value) ? '' : value}
      onChange={(next) => {
        onChange(next === '' ? Number.NaN : Number(next));
      }}
      onBlur={onBlur}
      min={1}
      max={DOMAIN_USER_QUOTA_MAX_MB}
      step={256}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      thousandSeparator={false}
      rightSection={
        <Text fz="sm" c="dimmed" aria-hidden>
          MB
        </Text>
      }
      rightSectionWidth={44}
      error={error}
      autoFocus={autoFocus}
    />
  );
});
