import { useEffect, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconDeviceFloppy, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DNS_RECORD_TYPES, DNS_TTL_MAX, DNS_TTL_MIN, type DnsRecord } from '@berth/contracts';
import { AppModal } from '../../../components/AppModal.tsx';
import { DialogActions } from '../../../components/DialogActions.tsx';
import { ApiError } from '../../../api/client.ts';
import { useDnsRecordCreate, useDnsRecordUpdate } from '../../../api/dns.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { formErrorOf, useSchemaResolver } from '../../../forms/validation.ts';
import {
  CAA_FLAGS,
  CAA_TAGS,
  contentField,
  emptyRecordForm,
  formToPayload,
  PORT_MAX,
  recordFormSchema,
  recordToForm,
  WITH_PRIORITY,
} from './recordForm.ts';
import { formatDuration } from './formatDuration.ts';
import classes from '../domain-users/DomainPages.module.css';

const FIELDS = ['name', 'type', 'ttl', 'priority', 'content', 'weight', 'port', 'target', 'caaFlags', 'caaTag', 'caaValue'] as const;

interface RecordDialogProps {
  domainId: number;
  /** The zone's name, shown after the record's name. */
  zone: string;
  /** 'new' adds a record; a record edits it; null closes the dialog. */
  editing: DnsRecord | 'new' | null;
  onClose: () => void;
}

/** The server names SRV/CAA problems `content`: they belong to the parts the dialog shows. */
function withFormFields(error: unknown, type: Parameters<typeof contentField>[0]): unknown {
  if (!(error instanceof ApiError) || !error.fieldErrors.content) return error;
  const { content, ...rest } = error.fieldErrors;
  return new ApiError(error.status, error.message, { ...rest, [contentField(type)]: content }, error.retryAfter);
}

/** Add or edit one record; the fields follow the type (MX priority, SRV parts, CAA parts, ...). */
export function RecordDialog({ domainId, zone, editing, onClose }: RecordDialogProps) {
  const { t } = useTranslation();
  const create = useDnsRecordCreate(domainId);
  const update = useDnsRecordUpdate(domainId);
  const [formError, setFormError] = useState<string | null>(null);
  const opened = editing !== null;
  const record = editing === 'new' ? null : editing;

  const schema = useMemo(
    () =>
      recordFormSchema({
        required: t('validation.required'),
        ttlRange: t('dns.ttl_range'),
        priorityRange: t('dns.priority_range'),
        numberRange: t('dns.form.numberRange', { max: PORT_MAX }),
      }),
    [t],
  );
  const resolver = useSchemaResolver(schema);
  const {
    control,
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    reset,
    setError,
  } = useForm({ resolver, defaultValues: emptyRecordForm() });
  const type = useWatch({ control, name: 'type' });
  const ttl = useWatch({ control, name: 'ttl' });

  // Each opening starts from that record, or from an empty A record.
  useEffect(() => {
    if (editing === null) return;
    reset(editing === 'new' ? emptyRecordForm() : recordToForm(editing));
  }, [editing, reset]);

  const close = () => {
    if (isSubmitting) return;
    setFormError(null);
    onClose();
  };

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    const payload = formToPayload(values);
    try {
      const answer = record ? await update.mutateAsync({ record, payload }) : await create.mutateAsync(payload);
      pushMessage({ type: 'notice', data: answer.message ?? 'dns.saved', timeout: NOTICE_TIMEOUT_MS });
      onClose();
    } catch (error) {
      setFormError(formErrorOf(withFormFields(error, values.type), FIELDS, setError, t));
    }
  });

  const ttlSeconds = /^\d+$/.test(ttl) ? Number(ttl) : NaN;
  const ttlHint =
    ttlSeconds >= DNS_TTL_MIN && ttlSeconds <= DNS_TTL_MAX
      ? t('dns.form.ttlHintWith', { duration: formatDuration(ttlSeconds) })
      : t('dns.form.ttlHint', { min: DNS_TTL_MIN, max: DNS_TTL_MAX });

  return (
    <AppModal
      opened={opened}
      onClose={close}
      title={record ? t('dns.form.editTitle', { type: record.type }) : t('dns.form.addTitle')}
      size="lg"
    >
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
          <NativeSelect
            label={t('dns.form.type')}
            description={t(`dns.types.${type}`)}
            data={DNS_RECORD_TYPES.map((value) => ({ value, label: value }))}
            disabled={record !== null}
            error={errors.type?.message}
            {...register('type')}
          />
          <TextInput
            data-autofocus
            label={t('dns.form.name')}
            description={t('dns.form.nameHint')}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            error={errors.name?.message}
            inputContainer={(input) => (
              <div className={classes.suffixed}>
                {input}
                <span className={classes.suffix} title={`.${zone}`} aria-hidden>
                  .{zone}
                </span>
              </div>
            )}
            {...register('name')}
          />
          <TypeFields type={type} register={register} errors={errors} />
          <TextInput
            label={t('dns.form.ttl')}
            description={ttlHint}
            inputMode="numeric"
            autoComplete="off"
            rightSection={
              <Text fz="sm" c="dimmed" aria-hidden>
                s
              </Text>
            }
            error={errors.ttl?.message}
            {...register('ttl')}
          />
          <DialogActions
            submitLabel={record ? t('dns.form.save') : t('dns.form.add')}
            icon={record ? <IconDeviceFloppy size={16} aria-hidden /> : <IconPlus size={16} aria-hidden />}
            busy={isSubmitting}
            onCancel={close}
          />
        </Stack>
      </form>
    </AppModal>
  );
}

type FormApi = ReturnType<typeof useForm<ReturnType<typeof emptyRecordForm>>>;

interface TypeFieldsProps {
  type: ReturnType<typeof emptyRecordForm>['type'];
  register: FormApi['register'];
  errors: FormApi['formState']['errors'];
}

/** The value of a record in the parts its type has. */
function TypeFields({ type, register, errors }: TypeFieldsProps) {
  const { t } = useTranslation();
  const priority = WITH_PRIORITY.has(type) ? (
    <TextInput
      label={t('dns.form.priority')}
      description={t(type === 'MX' ? 'dns.form.priorityHintMx' : 'dns.form.priorityHintSrv')}
      inputMode="numeric"
      autoComplete="off"
      error={errors.priority?.message}
      {...register('priority')}
    />
  ) : null;

  if (type === 'SRV') {
    return (
      <>
        <div className={classes.fieldRow}>
          {priority}
          <TextInput
            label={t('dns.form.weight')}
            inputMode="numeric"
            autoComplete="off"
            error={errors.weight?.message}
            {...register('weight')}
          />
          <TextInput label={t('dns.form.port')} inputMode="numeric" autoComplete="off" error={errors.port?.message} {...register('port')} />
        </div>
        <TextInput
          label={t('dns.form.target')}
          description={t('dns.form.targetHint')}
          placeholder="sip.example.com"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          error={errors.target?.message}
          {...register('target')}
        />
      </>
    );
  }
  if (type === 'CAA') {
    return (
      <>
        <div className={classes.fieldRow}>
          <NativeSelect
            label={t('dns.form.caaFlags')}
            data={CAA_FLAGS.map((value) => ({ value, label: t(`dns.form.caaFlag${value}`) }))}
            error={errors.caaFlags?.message}
            {...register('caaFlags')}
          />
          <NativeSelect
            label={t('dns.form.caaTag')}
            data={CAA_TAGS.map((value) => ({ value, label: value }))}
            error={errors.caaTag?.message}
            {...register('caaTag')}
          />
        </div>
        <TextInput
          label={t('dns.form.caaValue')}
          description={t('dns.form.caaValueHint')}
          placeholder="letsencrypt.org"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          error={errors.caaValue?.message}
          {...register('caaValue')}
        />
      </>
    );
  }
  if (type === 'TXT') {
    return (
      <Textarea
        label={t('dns.form.content.TXT')}
        description={t('dns.form.contentHint.TXT')}
        autosize
        minRows={2}
        maxRows={8}
        spellCheck={false}
        error={errors.content?.message}
        {...register('content')}
      />
    );
  }
  return (
    <>
      {priority}
      <TextInput
        label={t(`dns.form.content.${type}`)}
        description={t(`dns.form.contentHint.${type}`)}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        error={errors.content?.message}
        {...register('content')}
      />
    </>
  );
}
