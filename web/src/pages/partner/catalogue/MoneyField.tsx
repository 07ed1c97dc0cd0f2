import { NumberInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { currencySymbol, formatMoney } from '../../shop/money.ts';
import { type Amount, decimalsOf, grossOf, toMinor } from './draft.ts';

interface MoneyFieldProps {
  label: string;
  value: Amount;
  onChange: (value: Amount) => void;
  currency: string;
  /** When given, the price with this VAT rate is shown under the field. */
  vatRate?: number;
  error?: string;
  required?: boolean;
  autoFocus?: boolean;
}

/** An amount in major units ("12.90") with the currency's symbol; with a VAT rate, the gross price under it. */
export function MoneyField({ label, value, onChange, currency, vatRate, error, required, autoFocus }: MoneyFieldProps) {
  const { t } = useTranslation();
  const minor = toMinor(value, currency);
  const gross =
    vatRate !== undefined && Number.isFinite(minor) && minor >= 0
      ? t('catalogue.withVat', { amount: formatMoney(grossOf(minor, vatRate), currency) })
      : undefined;
  return (
    <NumberInput
      label={label}
      value={value}
      onChange={onChange}
      decimalScale={decimalsOf(currency)}
      fixedDecimalScale
      allowNegative={false}
      rightSection={<span aria-hidden>{currencySymbol(currency)}</span>}
      description={gross}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      error={error}
      required={required}
      data-autofocus={autoFocus ? true : undefined}
    />
  );
}
