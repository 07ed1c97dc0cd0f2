import { Text, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { hostingPlanPayloadSchema, MAIL_SEND_PER_HOUR_DEFAULT, type HostingPlan, type ShopSettings } from '@berth/contracts';
import { usePlanSave } from '../../../api/catalogue.ts';
import partnerClasses from '../Partner.module.css';
import { type Amount, toMajor, toMinor } from './draft.ts';
import { CatalogueForm } from './CatalogueForm.tsx';
import { EditDialog } from './EditDialog.tsx';
import { MoneyField } from './MoneyField.tsx';
import { useDraft } from './useDraft.ts';

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
    <EditDialog
      editing={plan}
      title={(row) => (row ? t('catalogue.plans.editTitle', { name: row.title }) : t('catalogue.plans.createTitle'))}
      onClose={onClose}
    >
      {(row) => <PlanForm plan={row} settings={settings} onDone={onClose} />}
    </EditDialog>
  );
}

interface Draft {
  title: string;
  description: string;
  monthly_price: Amount;
  yearly_price: Amount;
  active: boolean;
  /** What the plan includes, as typed: empty is unlimited. */
  max_domains: string;
  max_mailboxes: string;
  disk_gb: string;
  php_workers: string;
  php_memory_mb: string;
  mail_per_hour: string;
}

const LIMITS = ['max_domains', 'max_mailboxes', 'disk_gb'] as const;
/** The customer's PHP pool; empty is the web server's default (agent/src/php.ts). */
const PHP_LIMITS = ['php_workers', 'php_memory_mb'] as const;
/** Mail that leaves; empty is the platform's default (MAIL_SEND_PER_HOUR_DEFAULT), never unlimited. */
const MAIL_LIMITS = ['mail_per_hour'] as const;
const limitText = (limit: number | null): string => (limit === null ? '' : String(limit));
/** Empty is unlimited; anything but a whole number is sent as -1 for the schema to refuse on its field. */
const limitValue = (text: string): number | null => (text.trim() === '' ? null : /^\d+$/.test(text.trim()) ? Number(text.trim()) : -1);

function draftOf(plan: HostingPlan | null, currency: string): Draft {
  if (!plan)
    return {
      title: '',
      description: '',
      monthly_price: '',
      yearly_price: '',
      active: true,
      max_domains: '',
      max_mailboxes: '',
      disk_gb: '',
      php_workers: '',
      php_memory_mb: '',
      mail_per_hour: '',
    };
  return {
    title: plan.title,
    description: plan.description,
    monthly_price: toMajor(plan.monthly.net.amount, currency),
    yearly_price: toMajor(plan.yearly.net.amount, currency),
    active: plan.active,
    max_domains: limitText(plan.max_domains),
    max_mailboxes: limitText(plan.max_mailboxes),
    disk_gb: limitText(plan.disk_gb),
    php_workers: limitText(plan.php_workers),
    php_memory_mb: limitText(plan.php_memory_mb),
    mail_per_hour: limitText(plan.mail_per_hour),
  };
}

function PlanForm({ plan, settings, onDone }: { plan: HostingPlan | null; settings: ShopSettings; onDone: () => void }) {
  const { t } = useTranslation();
  const save = usePlanSave();
  const { currency, vat_rate: vatRate } = settings;
  const { draft, set, errors, formError, submitWith } = useDraft<Draft>(() => draftOf(plan, currency));
  const submit = submitWith({
    schema: hostingPlanPayloadSchema,
    payload: () => ({
      ...draft,
      monthly_price: toMinor(draft.monthly_price, currency),
      yearly_price: toMinor(draft.yearly_price, currency),
      max_domains: limitValue(draft.max_domains),
      max_mailboxes: limitValue(draft.max_mailboxes),
      disk_gb: limitValue(draft.disk_gb),
      php_workers: limitValue(draft.php_workers),
      php_memory_mb: limitValue(draft.php_memory_mb),
      mail_per_hour: limitValue(draft.mail_per_hour),
    }),
    send: (payload) => save.mutateAsync({ id: plan?.id ?? null, payload }),
    saved: t('catalogue.plans.saved'),
    onSaved: onDone,
  });

  return (
    <CatalogueForm
      kind="plans"
      editing={plan !== null}
      submit={submit}
      formError={formError}
      active={draft.active}
      onActive={(active) => set('active', active)}
      busy={save.isPending}
      onCancel={onDone}
    >
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
      <LimitFields
        hint={t('catalogue.plans.limits.hint')}
        limits={LIMITS}
        placeholder={() => t('catalogue.plans.limits.unlimited')}
        draft={draft}
        set={set}
        errors={errors}
      />
      <LimitFields
        hint={t('catalogue.plans.limits.phpHint')}
        limits={PHP_LIMITS}
        placeholder={(limit) =>
          t(limit === 'php_workers' ? 'catalogue.plans.limits.php_workersDefault' : 'catalogue.plans.limits.php_memory_mbDefault')
        }
        draft={draft}
        set={set}
        errors={errors}
      />
      <LimitFields
        hint={t('catalogue.plans.limits.mailHint')}
        limits={MAIL_LIMITS}
        placeholder={() => t('catalogue.plans.limits.mail_per_hourDefault', { count: MAIL_SEND_PER_HOUR_DEFAULT })}
        draft={draft}
        set={set}
        errors={errors}
      />
    </CatalogueForm>
  );
}

type LimitName = (typeof LIMITS)[number] | (typeof PHP_LIMITS)[number] | (typeof MAIL_LIMITS)[number];

/** A group of a plan's limits as typed: whole numbers, empty for the group's default. */
function LimitFields({
  hint,
  limits,
  placeholder,
  draft,
  set,
  errors,
}: {
  hint: string;
  limits: readonly LimitName[];
  placeholder: (limit: LimitName) => string;
  draft: Draft;
  set: (field: LimitName, value: string) => void;
  errors: Partial<Record<string, string>>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Text fz="sm" c="dimmed" className={partnerClasses.wide}>
        {hint}
      </Text>
      {limits.map((limit) => (
        <TextInput
          key={limit}
          label={t(`catalogue.plans.limits.${limit}`)}
          placeholder={placeholder(limit)}
          inputMode="numeric"
          autoComplete="off"
          value={draft[limit]}
          onChange={(event) => {
            set(limit, event.currentTarget.value);
          }}
          error={errors[limit]}
        />
      ))}
    </>
  );
}
