import { DateField } from '../../forms/DateField.tsx';
import { useState, type FormEvent } from 'react';
import { Button, Checkbox, Group, MultiSelect, NativeSelect, NumberInput, Stack, TagsInput, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PRODUCT_KINDS, promoPayloadSchema, type ProductKind, type Promo, type PromoPayload } from '@berth/contracts';
import { AppModal } from '../../components/AppModal.tsx';
import { ApiError } from '../../api/client.ts';
import { usePromoCreate, usePromoUpdate } from '../../api/promo.ts';
import { useCatalogue } from '../../api/shop.ts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { createErrorMap, describeError } from '../../forms/validation.ts';
import { translateServerText } from '../../i18n/i18n.ts';
import { kindLabel } from '../shop/periods.ts';
import partnerClasses from './Partner.module.css';

interface PromoDialogProps {
  /** The code to edit, 'new' for a new one, null when closed. */
  promo: Promo | 'new' | null;
  onClose: () => void;
}

/** Creates or edits a promo code. */
export function PromoDialog({ promo, onClose }: PromoDialogProps) {
  const { t } = useTranslation();
  return (
    <AppModal
      opened={promo !== null}
      onClose={onClose}
      size="lg"
      title={promo === 'new' ? t('partner.promo.createTitle') : t('partner.promo.editTitle', { code: promo?.code ?? '' })}
    >
      {promo !== null ? (
        <PromoForm key={promo === 'new' ? 'new' : promo.id} promo={promo === 'new' ? null : promo} onDone={onClose} />
      ) : null}
    </AppModal>
  );
}

interface Draft {
  code: string;
  kind: 'percent' | 'fixed';
  value: string | number;
  valid_from: string;
  valid_until: string;
  max_uses: string | number;
  once_per_customer: boolean;
  kinds: ProductKind[];
  plan_ids: string[];
  tlds: string[];
  active: boolean;
}

const dateOf = (iso: string | null): string => (iso ? iso.slice(0, 10) : '');

function draftOf(promo: Promo | null): Draft {
  if (!promo) {
    return {
      code: '',
      kind: 'percent',
      value: 10,
      valid_from: '',
      valid_until: '',
      max_uses: '',
      once_per_customer: false,
      kinds: [],
      plan_ids: [],
      tlds: [],
      active: true,
    };
  }
  return {
    code: promo.code,
    kind: promo.kind,
    value: promo.kind === 'fixed' ? promo.value / 100 : promo.value,
    valid_from: dateOf(promo.valid_from),
    valid_until: dateOf(promo.valid_until),
    max_uses: promo.max_uses ?? '',
    once_per_customer: promo.once_per_customer,
    kinds: promo.kinds,
    plan_ids: promo.plan_ids.map(String),
    tlds: promo.tlds,
    active: promo.active,
  };
}

function payloadOf(draft: Draft): Record<string, unknown> {
  const value = draft.value === '' ? NaN : Number(draft.value);
  return {
    code: draft.code,
    kind: draft.kind,
    value: draft.kind === 'fixed' ? Math.round(value * 100) : value,
    valid_from: draft.valid_from || null,
    valid_until: draft.valid_until || null,
    max_uses: draft.max_uses === '' ? null : Number(draft.max_uses),
    once_per_customer: draft.once_per_customer,
    kinds: draft.kinds,
    plan_ids: draft.plan_ids.map(Number),
    tlds: draft.tlds.map((tld) => tld.replace(/^\./, '')),
    active: draft.active,
  };
}

type Errors = Record<string, string>;

function PromoForm({ promo, onDone }: { promo: Promo | null; onDone: () => void }) {
  const { t } = useTranslation();
  const catalogue = useCatalogue();
  const create = usePromoCreate();
  const update = usePromoUpdate();
  const [draft, setDraft] = useState<Draft>(() => draftOf(promo));
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const busy = create.isPending || update.isPending;

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
    setErrors((current) => {
      const { [key]: _cleared, ...rest } = current;
      return rest;
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const parsed = promoPayloadSchema.safeParse(payloadOf(draft), { error: createErrorMap(t) });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        found[field] ??= translateServerText(issue.message);
      }
      setErrors(found);
      return;
    }
    try {
      if (promo) await update.mutateAsync({ id: promo.id, patch: parsed.data as PromoPayload });
      else await create.mutateAsync(parsed.data);
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.isValidation && Object.keys(error.fieldErrors).length > 0) {
        const found: Errors = {};
        for (const [path, texts] of Object.entries(error.fieldErrors)) {
          found[path.split('.')[0] ?? path] = texts.map(translateServerText).join(' ');
        }
        setErrors(found);
      } else {
        setFormError(describeError(error, t));
      }
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
        <div className={partnerClasses.formGrid}>
          <TextInput
            data-autofocus
            label={t('partner.promo.code')}
            description={t('partner.promo.codeHint')}
            value={draft.code}
            onChange={(event) => {
              set('code', event.currentTarget.value.toUpperCase());
            }}
            error={errors.code}
            spellCheck={false}
            autoComplete="off"
            required
          />
          <NativeSelect
            label={t('partner.promo.kind')}
            value={draft.kind}
            data={[
              { value: 'percent', label: t('partner.promo.percent') },
              { value: 'fixed', label: t('partner.promo.fixed') },
            ]}
            onChange={(event) => {
              set('kind', event.currentTarget.value === 'fixed' ? 'fixed' : 'percent');
            }}
          />
          <NumberInput
            label={draft.kind === 'percent' ? t('partner.promo.valuePercent') : t('partner.promo.valueFixed')}
            value={draft.value}
            onChange={(value) => {
              set('value', value);
            }}
            decimalScale={draft.kind === 'percent' ? 0 : 2}
            allowNegative={false}
            error={errors.value}
            required
          />
          <NumberInput
            label={t('partner.promo.maxUses')}
            description={t('partner.promo.maxUsesHint')}
            value={draft.max_uses}
            onChange={(value) => {
              set('max_uses', value);
            }}
            allowDecimal={false}
            allowNegative={false}
            error={errors.max_uses}
          />
          <DateField
            label={t('partner.promo.validFrom')}
            value={draft.valid_from}
            onChange={(value) => {
              set('valid_from', value);
            }}
            error={errors.valid_from}
          />
          <DateField
            label={t('partner.promo.validUntil')}
            value={draft.valid_until}
            onChange={(value) => {
              set('valid_until', value);
            }}
            error={errors.valid_until}
          />
          <Checkbox.Group
            className={partnerClasses.wide}
            label={t('partner.promo.kinds')}
            description={t('partner.promo.kindsHint')}
            value={draft.kinds}
            onChange={(value) => {
              set('kinds', value as ProductKind[]);
            }}
            error={errors.kinds}
          >
            <Group gap="md" mt="xs">
              {PRODUCT_KINDS.map((kind) => (
                <Checkbox key={kind} value={kind} label={kindLabel(t, kind)} />
              ))}
            </Group>
          </Checkbox.Group>
          <MultiSelect
            label={t('partner.promo.planIds')}
            placeholder={draft.plan_ids.length === 0 ? t('partner.promo.anyPlan') : undefined}
            data={(catalogue.data?.plans ?? []).map((plan) => ({ value: String(plan.id), label: plan.title }))}
            value={draft.plan_ids}
            onChange={(value) => {
              set('plan_ids', value);
            }}
            error={errors.plan_ids}
            comboboxProps={{ withinPortal: true }}
          />
          <TagsInput
            label={t('partner.promo.tlds')}
            placeholder={draft.tlds.length === 0 ? t('partner.promo.anyTld') : undefined}
            data={(catalogue.data?.tlds ?? []).map((tld) => tld.tld)}
            value={draft.tlds}
            onChange={(value) => {
              set('tlds', value);
            }}
            error={errors.tlds}
            comboboxProps={{ withinPortal: true }}
          />
          <Checkbox
            label={t('partner.promo.oncePerCustomerOption')}
            checked={draft.once_per_customer}
            onChange={(event) => {
              set('once_per_customer', event.currentTarget.checked);
            }}
          />
          <Checkbox
            label={t('partner.promo.activeOption')}
            checked={draft.active}
            onChange={(event) => {
              set('active', event.currentTarget.checked);
            }}
          />
        </div>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={busy}>
            {t('app.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {promo ? t('partner.promo.save') : t('partner.promo.createSubmit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
