import { useState, type FormEvent } from 'react';
import { Button, Checkbox, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { hostingPlanPayloadSchema, type HostingPlan, type ShopSettings } from '@berth/contracts';
import { usePlanSave } from '../../../api/catalogue.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { ShopModal } from '../../shop/ShopModal.tsx';
import partnerClasses from '../Partner.module.css';
import { type Amount, check, errorsOfFailure, type FieldErrors, toMajor, toMinor } from './draft.ts';
import { MoneyField } from './MoneyField.tsx';

interface PlanDialogProps {
  /** The plan to edit, 'new' for a new one, null when closed. */
  plan: HostingPlan | 'new' | null;
  settings: ShopSettings;
  onClose: () => void;
}

/** Adds or changes a hosting plan; prices are typed net, the gross is shown under each. */
export function PlanDialog({ plan, settings, onClose }: PlanDialogProps) {
  const { t } = useTranslation();
  return (
    <ShopModal
      opened={plan !== null}
      onClose={onClose}
      size="lg"
      title={plan === 'new' ? t('catalogue.plans.createTitle') : t('catalogue.plans.editTitle', { name: plan?.title ?? '' })}
    >
      {plan !== null ? <PlanForm key={plan === 'new' ? 'new' : plan.id} plan={plan === 'new' ? null : plan} settings={settings} onDone={onClose} /> : null}
    </ShopModal>
  );
}

interface Draft {
  title: string;
  description: string;
  monthly_price: Amount;
  yearly_price: Amount;
  active: boolean;
}

function draftOf(plan: HostingPlan | null, currency: string): Draft {
  if (!plan) return { title: '', description: '', monthly_price: '', yearly_price: '', active: true };
  return {
    title: plan.title,
    description: plan.description,
    monthly_price: toMajor(plan.monthly.net.amount, currency),
    yearly_price: toMajor(plan.yearly.net.amount, currency),
    active: plan.active,
  };
}

function PlanForm({ plan, settings, onDone }: { plan: HostingPlan | null; settings: ShopSettings; onDone: () => void }) {
  const { t } = useTranslation();
  const save = usePlanSave();
  const { currency, vat_rate: vatRate } = settings;
  const [draft, setDraft] = useState<Draft>(() => draftOf(plan, currency));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setErrors(({ [key]: _cleared, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const checked = check(
      hostingPlanPayloadSchema,
      { ...draft, monthly_price: toMinor(draft.monthly_price, currency), yearly_price: toMinor(draft.yearly_price, currency) },
      t,
    );
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    try {
      const answer = await save.mutateAsync({ id: plan?.id ?? null, payload: checked.data });
      pushMessage({ type: 'notice', data: answer.message ?? t('catalogue.plans.saved'), timeout: NOTICE_TIMEOUT_MS });
      onDone();
    } catch (error) {
      const failure = errorsOfFailure(error, t);
      setErrors(failure.fields);
      setFormError(failure.form);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
        <div className={partnerClasses.formGrid}>
          <TextInput
            data-autofocus
            className={partnerClasses.wide}
            label={t('catalogue.plans.name')}
            value={draft.title}
            onChange={(event) => {
              set('title', event.currentTarget.value);
            }}
            error={errors.title}
            autoComplete="off"
            required
          />
          <Textarea
            className={partnerClasses.wide}
            label={t('catalogue.plans.descriptionField')}
            value={draft.description}
            onChange={(event) => {
              set('description', event.currentTarget.value);
            }}
            error={errors.description}
            autosize
            minRows={2}
          />
          <MoneyField
            label={t('catalogue.plans.monthlyNet')}
            value={draft.monthly_price}
            onChange={(value) => {
              set('monthly_price', value);
            }}
            currency={currency}
            vatRate={vatRate}
            error={errors.monthly_price}
            required
          />
          <MoneyField
            label={t('catalogue.plans.yearlyNet')}
            value={draft.yearly_price}
            onChange={(value) => {
              set('yearly_price', value);
            }}
            currency={currency}
            vatRate={vatRate}
            error={errors.yearly_price}
            required
          />
          <Checkbox
            className={partnerClasses.wide}
            label={t('catalogue.plans.activeOption')}
            checked={draft.active}
            onChange={(event) => {
              set('active', event.currentTarget.checked);
            }}
          />
        </div>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={save.isPending}>
            {t('app.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {plan ? t('catalogue.save') : t('catalogue.plans.createSubmit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
