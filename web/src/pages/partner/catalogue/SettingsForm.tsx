import { Button, Group, NativeSelect, NumberInput, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CURRENCIES, shopSettingsPayloadSchema, type ShopSettings } from '@berth/contracts';
import { useShopSettingsUpdate } from '../../../api/catalogue.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import partnerClasses from '../Partner.module.css';
import { type Amount, toMajor, toMinor } from './draft.ts';
import { MoneyField } from './MoneyField.tsx';
import { useDraft } from './useDraft.ts';

interface Draft {
  currency: string;
  vat_rate: Amount;
  commission_rate: Amount;
  top_up_min: Amount;
  top_up_max: Amount;
  renew_days_before: Amount;
  grace_days: Amount;
}

const draftOf = (settings: ShopSettings): Draft => ({
  currency: settings.currency,
  vat_rate: settings.vat_rate,
  commission_rate: settings.commission_rate,
  top_up_min: toMajor(settings.top_up_min, settings.currency),
  top_up_max: toMajor(settings.top_up_max, settings.currency),
  renew_days_before: settings.renew_days_before,
  grace_days: settings.grace_days,
});

const percent = (value: Amount): number => (value === '' ? NaN : Number(value));

/** Currency, VAT rate, partner commission, credit top-up limits, and when renewals are charged and unpaid ones suspend. */
export function SettingsForm({ settings }: { settings: ShopSettings }) {
  const { t } = useTranslation();
  const save = useShopSettingsUpdate();
  const { draft, setDraft, set, errors, formError, submitWith } = useDraft<Draft>(() => draftOf(settings));
  const submit = submitWith({
    schema: shopSettingsPayloadSchema,
    payload: () => ({
      currency: draft.currency,
      vat_rate: percent(draft.vat_rate),
      commission_rate: percent(draft.commission_rate),
      top_up_min: toMinor(draft.top_up_min, draft.currency),
      top_up_max: toMinor(draft.top_up_max, draft.currency),
      renew_days_before: percent(draft.renew_days_before),
      grace_days: percent(draft.grace_days),
    }),
    send: (payload) => save.mutateAsync(payload),
    saved: t('catalogue.settings.saved'),
    onSaved: (answer) => {
      setDraft(draftOf(answer.data.settings));
    },
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="shop-settings">
      <Stack gap="md">
        {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
        <div className={partnerClasses.formGrid}>
          <NativeSelect
            label={t('catalogue.settings.currency')}
            description={t('catalogue.settings.currencyHint')}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            value={draft.currency}
            data={[...CURRENCIES]}
            onChange={(event) => {
              set('currency', event.currentTarget.value);
            }}
            error={errors.currency}
          />
          <NumberInput
            label={t('catalogue.settings.vatRate')}
            value={draft.vat_rate}
            onChange={(value) => {
              set('vat_rate', value);
            }}
            decimalScale={2}
            allowNegative={false}
            rightSection={<span aria-hidden>%</span>}
            error={errors.vat_rate}
            required
          />
          <NumberInput
            label={t('catalogue.settings.commissionRate')}
            description={t('catalogue.settings.commissionHint')}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            value={draft.commission_rate}
            onChange={(value) => {
              set('commission_rate', value);
            }}
            decimalScale={2}
            allowNegative={false}
            rightSection={<span aria-hidden>%</span>}
            error={errors.commission_rate}
            required
          />
          <MoneyField
            label={t('catalogue.settings.topUpMin')}
            value={draft.top_up_min}
            onChange={(value) => {
              set('top_up_min', value);
            }}
            currency={draft.currency}
            error={errors.top_up_min}
            required
          />
          <MoneyField
            label={t('catalogue.settings.topUpMax')}
            value={draft.top_up_max}
            onChange={(value) => {
              set('top_up_max', value);
            }}
            currency={draft.currency}
            error={errors.top_up_max}
            required
          />
          <NumberInput
            label={t('catalogue.settings.renewDaysBefore')}
            description={t('catalogue.settings.renewDaysBeforeHint')}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            value={draft.renew_days_before}
            onChange={(value) => {
              set('renew_days_before', value);
            }}
            min={1}
            max={60}
            hideControls
            allowDecimal={false}
            allowNegative={false}
            error={errors.renew_days_before}
            required
          />
          <NumberInput
            label={t('catalogue.settings.graceDays')}
            description={t('catalogue.settings.graceDaysHint')}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            value={draft.grace_days}
            onChange={(value) => {
              set('grace_days', value);
            }}
            min={0}
            max={90}
            hideControls
            allowDecimal={false}
            allowNegative={false}
            error={errors.grace_days}
            required
          />
        </div>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {t('catalogue.settings.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
