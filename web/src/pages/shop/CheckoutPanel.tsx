import { useRef, useState } from 'react';
import { Button, Group, Radio, Skeleton, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { CartAddPayload, CheckoutResult, PaymentProviderName } from '@berth/contracts';
import { useCreditSummary } from '../../api/credit.ts';
import type { ApiError } from '../../api/client.ts';
import { useCheckout, usePaymentOptions } from '../../api/shop.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { describeError } from '../../forms/validation.ts';
import { translateServerText } from '../../i18n/i18n.ts';
import shopClasses from './Shop.module.css';

interface CheckoutPanelProps {
  /** The amount due, formatted (on the button). */
  total: string;
  /** A row of the cart is no longer sold: nothing can be ordered until it is removed. */
  blocked?: boolean;
  /** "Buy now": this one product instead of the cart. */
  item?: CartAddPayload;
  onDone: (result: CheckoutResult) => void;
}

/**
 * The way to pay and the checkout button. One idempotency key per attempt: a double click or a
 * retry after a lost answer sends the same key, so the server makes one order. A definite answer
 * (or another way to pay) ends the attempt.
 */
export function CheckoutPanel({ total, blocked = false, item, onDone }: CheckoutPanelProps) {
  const { t } = useTranslation();
  const options = usePaymentOptions();
  const credit = useCreditSummary();
  const checkout = useCheckout();
  const [chosen, setChosen] = useState<PaymentProviderName | null>(null);
  const attemptKey = useRef<string | null>(null);

  const enabled = (options.data ?? []).filter((option) => option.enabled).map((option) => option.id);
  const payment = chosen !== null && enabled.includes(chosen) ? chosen : (enabled[0] ?? null);

  const submit = () => {
    if (payment === null || checkout.isPending) return;
    attemptKey.current ??= crypto.randomUUID();
    // mutateAsync, not mutate's callbacks: the cart's own realtime event can empty the cart (and
    // unmount this panel) before the answer arrives, and a callback of an unmounted observer never
    // runs; the page that shows the result stays mounted.
    checkout
      .mutateAsync({ payment, idempotency_key: attemptKey.current, ...(item ? { item } : {}) })
      .then((answer) => {
        attemptKey.current = null;
        const instructions = answer.data.invoice.instructions;
        // A card gateway takes the payment on its own page.
        if (answer.data.status === 'pending' && instructions?.kind === 'redirect') {
          window.location.assign(instructions.url);
          return;
        }
        onDone(answer.data);
      })
      .catch((error: ApiError) => {
        // A lost answer may have made the order: the retry must carry the same key.
        if (!error.isNetwork) attemptKey.current = null;
      });
  };

  if (options.isPending) return <Skeleton height={120} radius="md" />;

  return (
    <Stack gap="md">
      {enabled.length === 0 ? (
        <FormAlert kind="info">{t('shop.checkout.noPayment')}</FormAlert>
      ) : (
        <Radio.Group
          label={t('shop.checkout.payWith')}
          value={payment}
          onChange={(value) => {
            setChosen(value as PaymentProviderName);
            attemptKey.current = null;
            checkout.reset();
          }}
        >
          <Stack gap="xs" mt="xs">
            {enabled.map((id) => (
              <Radio.Card key={id} value={id} className={shopClasses.payOption}>
                <Group wrap="nowrap" align="flex-start" gap="sm">
                  <Radio.Indicator />
                  <div>
                    <Text fw={600} fz="sm">
                      {t(`shop.checkout.provider.${id}`)}
                    </Text>
                    <Text fz="xs" c="dimmed">
                      {id === 'credit' && credit.data
                        ? t('shop.checkout.balance', { balance: credit.data.balance.formatted })
                        : t(`shop.checkout.providerHint.${id}`)}
                    </Text>
                  </div>
                </Group>
              </Radio.Card>
            ))}
          </Stack>
        </Radio.Group>
      )}
      {checkout.isError ? (
        <FormAlert kind="error">
          {checkout.error.isValidation && Object.keys(checkout.error.fieldErrors).length > 0
            ? Object.values(checkout.error.fieldErrors).flat().map(translateServerText).join(' ')
            : describeError(checkout.error, t)}
        </FormAlert>
      ) : null}
      {blocked ? <FormAlert kind="error">{t('shop.checkout.blocked')}</FormAlert> : null}
      <Button
        size="md"
        fullWidth
        leftSection={<IconLock size={16} aria-hidden />}
        disabled={payment === null || blocked}
        loading={checkout.isPending}
        onClick={submit}
      >
        {t(item ? 'shop.checkout.payNow' : 'shop.checkout.submit', { total })}
      </Button>
    </Stack>
  );
}
