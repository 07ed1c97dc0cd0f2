import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button, Group, NumberInput, Radio, Skeleton, Stack, Text } from '@mantine/core';
import { IconArrowRight, IconFileInvoice } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Invoice } from '@berth/contracts';
import { AppModal } from '../components/AppModal.tsx';
import { useCreditSummary, useTopUp } from '../api/credit.ts';
import { usePaymentOptions } from '../api/shop.ts';
import { FormAlert } from '../forms/FormAlert.tsx';
import { describeError } from '../forms/validation.ts';
import { translateServerText } from '../i18n/i18n.ts';
import { PaymentInstructions } from '../pages/shop/BankTransferInstructions.tsx';
import { creditText } from './PartnerCredit.tsx';
import { useSignedInUser } from './useSignedInUser.ts';
import { currencySymbol, formatWhole, minorPerUnit } from '../pages/shop/money.ts';

/** Suggested amounts, in whole currency units, shown when the tenant's limits allow them. */
const SUGGESTED = [50, 100, 250, 500];
const TOP_UP_PROVIDERS = ['bank_transfer', 'stripe'] as const;
type TopUpProvider = (typeof TOP_UP_PROVIDERS)[number];

interface AddCreditDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Shown beside the amount until the tenant's currency has loaded. */
  currency?: string;
}

/**
 * Adds partner credit: an amount within the tenant's limits and a way to pay, then the unpaid
 * top-up invoice with its payment instructions (or the card gateway's page). The credit arrives
 * when the payment is confirmed.
 */
export function AddCreditDialog({ opened, onClose, currency }: AddCreditDialogProps) {
  const { t } = useTranslation();
  const { user } = useSignedInUser();
  const [invoice, setInvoice] = useState<Invoice | null>(null);
  const close = () => {
    onClose();
    setInvoice(null);
  };
  return (
    <AppModal
      opened={opened}
      onClose={close}
      title={invoice ? t('partner.addCredit.payTitle') : t(creditText(user, 'addTitle'))}
      size={invoice ? 'lg' : 'md'}
    >
      {invoice ? (
        <TopUpInstructions invoice={invoice} onClose={close} />
      ) : (
        <TopUpForm onCancel={close} onInvoice={setInvoice} fallbackCurrency={currency} enabled={opened} />
      )}
    </AppModal>
  );
}

interface TopUpFormProps {
  onCancel: () => void;
  onInvoice: (invoice: Invoice) => void;
  fallbackCurrency: string | undefined;
  enabled: boolean;
}

function TopUpForm({ onCancel, onInvoice, fallbackCurrency, enabled }: TopUpFormProps) {
  const { t } = useTranslation();
  const { user } = useSignedInUser();
  const summary = useCreditSummary(enabled);
  const options = usePaymentOptions();
  const topUp = useTopUp();
  const [amount, setAmount] = useState<string | number>(100);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<TopUpProvider | null>(null);
  const amountInput = useRef<HTMLInputElement>(null);
  const ready = !summary.isPending && !options.isPending;
  // The field appears once the limits have loaded, after the dialog moved the focus.
  useEffect(() => {
    if (ready) amountInput.current?.focus();
  }, [ready]);

  const providers = TOP_UP_PROVIDERS.filter((id) => options.data?.some((option) => option.id === id && option.enabled));
  const payment = chosen ?? providers[0] ?? null;
  const limits = summary.data?.top_up;
  const currency = limits?.min.currency;
  const unit = currency ? minorPerUnit(currency) : 100;
  const range = limits ? { min: limits.min.formatted, max: limits.max.formatted } : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!limits) return;
    const minor = Math.round(Number(amount) * unit);
    if (amount === '' || !Number.isFinite(minor) || minor < limits.min.amount || minor > limits.max.amount) {
      setError(t('partner.addCredit.range', range ?? { min: '', max: '' }));
      return;
    }
    // With no way to pay, the notice above the buttons says so.
    if (payment === null) return;
    topUp.mutate(
      { amount: minor, payment },
      {
        onSuccess: (answer) => {
          const instructions = answer.data.invoice.instructions;
          if (instructions?.kind === 'redirect') {
            window.location.assign(instructions.url);
            return;
          }
          onInvoice(answer.data.invoice);
        },
        onError: (failure) => {
          const texts = failure.fieldErrors.amount;
          if (texts) setError(texts.map(translateServerText).join(' '));
        },
      },
    );
  };

  if (summary.isPending || options.isPending) {
    return (
      <Stack gap="md" aria-busy="true">
        <Skeleton height={60} radius="md" />
        <Skeleton height={80} radius="md" />
      </Stack>
    );
  }
  if (summary.isError) return <FormAlert kind="error">{describeError(summary.error, t)}</FormAlert>;

  const suggested = SUGGESTED.filter((value) => !limits || (value * unit >= limits.min.amount && value * unit <= limits.max.amount));
  const symbol = currency ? currencySymbol(currency) : (fallbackCurrency ?? '');

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          {t(creditText(user, 'addIntro'))}
        </Text>
        <NumberInput
          ref={amountInput}
          label={t('credit.amount')}
          description={range ? t('partner.addCredit.hint', range) : undefined}
          value={amount}
          onChange={(value) => {
            setAmount(value);
            setError(null);
          }}
          decimalScale={Math.log10(unit)}
          allowNegative={false}
          clampBehavior="none"
          step={10}
          rightSection={
            <Text fz="sm" c="dimmed">
              {symbol}
            </Text>
          }
          rightSectionWidth={52}
          error={error}
          required
        />
        <Group gap="xs">
          {suggested.map((value) => (
            <Button
              key={value}
              size="compact-sm"
              variant={Number(amount) === value ? 'light' : 'default'}
              onClick={() => {
                setAmount(value);
                setError(null);
              }}
            >
              {currency ? formatWhole(value, currency) : `${value} ${symbol}`}
            </Button>
          ))}
        </Group>
        {providers.length === 0 ? (
          <FormAlert kind="info">{t('partner.addCredit.noPayment')}</FormAlert>
        ) : (
          <Radio.Group
            label={t('partner.addCredit.payWith')}
            value={payment}
            onChange={(value) => {
              setChosen(value as TopUpProvider);
            }}
          >
            <Group gap="lg" mt="xs">
              {providers.map((id) => (
                <Radio key={id} value={id} label={t(`shop.checkout.provider.${id}`)} />
              ))}
            </Group>
          </Radio.Group>
        )}
        {topUp.isError && !topUp.error.fieldErrors.amount ? <FormAlert kind="error">{describeError(topUp.error, t)}</FormAlert> : null}
        <Group justify="flex-end" gap="sm" mt="xs">
          <Button variant="default" onClick={onCancel}>
            {t('app.cancel')}
          </Button>
          <Button type="submit" loading={topUp.isPending} rightSection={<IconArrowRight size={16} aria-hidden />}>
            {t('credit.continue')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function TopUpInstructions({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" data-testid="top-up-instructions">
      <FormAlert kind="info">{t('partner.addCredit.arrives', { number: invoice.number })}</FormAlert>
      {invoice.instructions ? <PaymentInstructions instructions={invoice.instructions} /> : null}
      <Group justify="flex-end" gap="sm">
        <Button
          component={Link}
          to={`/account/invoices/${invoice.id}`}
          variant="default"
          leftSection={<IconFileInvoice size={16} aria-hidden />}
          onClick={onClose}
        >
          {t('partner.addCredit.viewInvoice')}
        </Button>
        <Button onClick={onClose}>{t('partner.addCredit.done')}</Button>
      </Group>
    </Stack>
  );
}
