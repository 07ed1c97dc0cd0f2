import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button, Group, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useScrollLock } from '../components/useScrollLock.ts';
import { currentLanguage } from '../i18n/i18n.ts';

/** Whole currency units a partner may add at once. */
export const CREDIT_MIN = 10;
export const CREDIT_MAX = 10_000;
const SUGGESTED = [50, 100, 250, 500];

interface AddCreditDialogProps {
  opened: boolean;
  onClose: () => void;
  currency: string;
}

/**
 * Asks how much credit to add, then hands over to the credit page, which takes the payment
 * (`/system/partner/credit?add=<amount>`; the shop issue builds that page).
 */
export function AddCreditDialog({ opened, onClose, currency }: AddCreditDialogProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [amount, setAmount] = useState<string | number>(100);
  const [error, setError] = useState<string | null>(null);
  useScrollLock(opened);

  const range = { min: CREDIT_MIN, max: new Intl.NumberFormat(currentLanguage()).format(CREDIT_MAX) };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = typeof amount === 'number' ? amount : Number(amount);
    if (amount === '' || !Number.isInteger(value) || value < CREDIT_MIN || value > CREDIT_MAX) {
      setError(t('credit.amountRange', range));
      return;
    }
    onClose();
    void navigate(`/system/partner/credit?add=${value}`);
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('credit.addTitle')}
      radius="lg"
      centered
      // react-remove-scroll would inject a <style> that the CSP refuses; useScrollLock instead.
      lockScroll={false}
      closeButtonProps={{ 'aria-label': t('app.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text fz="sm" c="dimmed">
            {t('credit.addIntro')}
          </Text>
          <NumberInput
            data-autofocus
            label={t('credit.amount')}
            description={t('credit.amountHint', range)}
            value={amount}
            onChange={(value) => {
              setAmount(value);
              setError(null);
            }}
            min={CREDIT_MIN}
            max={CREDIT_MAX}
            step={10}
            allowDecimal={false}
            allowNegative={false}
            clampBehavior="none"
            rightSection={<Text fz="sm" c="dimmed">{currency}</Text>}
            rightSectionWidth={52}
            error={error}
            required
          />
          <Group gap="xs">
            {SUGGESTED.map((value) => (
              <Button
                key={value}
                size="compact-sm"
                variant={Number(amount) === value ? 'light' : 'default'}
                onClick={() => {
                  setAmount(value);
                  setError(null);
                }}
              >
                {value} {currency}
              </Button>
            ))}
          </Group>
          <Group justify="flex-end" gap="sm" mt="xs">
            <Button variant="default" onClick={onClose}>
              {t('app.cancel')}
            </Button>
            <Button type="submit" rightSection={<IconArrowRight size={16} aria-hidden />}>
              {t('credit.continue')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
