import { DateField } from '../../../forms/DateField.tsx';
import { useEffect, useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Group, NumberInput, Skeleton, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AUTOREPLY_BODY_MAX, AUTOREPLY_INTERVAL_DAYS, AUTOREPLY_SUBJECT_MAX, type Autoreply, type DomainUser } from '@berth/contracts';
import { useAutoreply, useAutoreplySave } from '../../../api/domainUsers.ts';
import { AppModal } from '../../../components/AppModal.tsx';
import { DialogActions } from '../../../components/DialogActions.tsx';
import { LoadFailed } from '../../../components/LoadFailed.tsx';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { SwitchField } from '../../../forms/SwitchField.tsx';
import { formErrorOf } from '../../../forms/validation.ts';
import classes from './DomainPages.module.css';

const FIELDS = ['enabled', 'subject', 'body', 'interval_days', 'starts_on', 'ends_on'] as const;

interface AutoreplyForm {
  enabled: boolean;
  subject: string;
  body: string;
  interval_days: number | string;
  /** As the date inputs hold them: '' for none. */
  starts_on: string;
  ends_on: string;
}

const formOf = (reply: Autoreply): AutoreplyForm => ({
  enabled: reply.enabled,
  subject: reply.subject,
  body: reply.body,
  interval_days: reply.interval_days,
  starts_on: reply.starts_on ?? '',
  ends_on: reply.ends_on ?? '',
});

interface AutoreplyDialogProps {
  domainId: number;
  /** The mailbox whose autoresponder is edited; null closes the dialog. */
  account: DomainUser | null;
  onClose: () => void;
}

/**
 * A mailbox's autoresponder ("out of office"): on or off, subject and text, how often one sender
 * is answered, and optionally the first and last day. The mail server applies it to the next
 * message that arrives.
 */
export function AutoreplyDialog({ domainId, account, onClose }: AutoreplyDialogProps) {
  const { t } = useTranslation();
  const current = useAutoreply(domainId, account?.id ?? null);
  return (
    <AppModal opened={account !== null} onClose={onClose} size="lg" title={t('domainUsers.autoreply.title', { uid: account?.uid ?? '' })}>
      {current.isPending ? (
        <Stack gap="sm" aria-busy="true">
          <Skeleton height={36} radius="md" />
          <Skeleton height={120} radius="md" />
        </Stack>
      ) : current.isError ? (
        <LoadFailed error={current.error} onRetry={() => void current.refetch()} />
      ) : account ? (
        <AutoreplyFormBody key={account.id} domainId={domainId} account={account} reply={current.data} onClose={onClose} />
      ) : null}
    </AppModal>
  );
}

function AutoreplyFormBody({
  domainId,
  account,
  reply,
  onClose,
}: {
  domainId: number;
  account: DomainUser;
  reply: Autoreply;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useAutoreplySave(domainId);
  const [formError, setFormError] = useState<string | null>(null);
  const {
    control,
    register,
    formState: { errors, isSubmitting },
    handleSubmit,
    reset,
    setError,
  } = useForm<AutoreplyForm>({ defaultValues: formOf(reply) });
  useEffect(() => {
    reset(formOf(reply));
  }, [reply, reset]);
  const enabled = useWatch({ control, name: 'enabled' });

  const close = () => {
    if (isSubmitting) return;
    onClose();
  };

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await save.mutateAsync({
        account,
        payload: {
          enabled: values.enabled,
          subject: values.subject,
          body: values.body,
          interval_days: Number(values.interval_days),
          starts_on: values.starts_on === '' ? null : values.starts_on,
          ends_on: values.ends_on === '' ? null : values.ends_on,
        },
      });
      pushMessage({ type: 'notice', data: answer.message ?? 'domainUsers.saved', timeout: NOTICE_TIMEOUT_MS });
      onClose();
    } catch (error) {
      setFormError(formErrorOf(error, FIELDS, setError, t));
    }
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          {t('domainUsers.autoreply.intro')}
        </Text>
        {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
        <SwitchField
          control={control}
          name="enabled"
          label={t('domainUsers.autoreply.enabled')}
          description={t('domainUsers.autoreply.enabledHint')}
          size="md"
        />
        <TextInput
          {...register('subject')}
          label={t('domainUsers.autoreply.subject')}
          placeholder={t('domainUsers.autoreply.subjectPlaceholder')}
          maxLength={AUTOREPLY_SUBJECT_MAX}
          required={enabled}
          error={errors.subject?.message}
        />
        <Textarea
          {...register('body')}
          label={t('domainUsers.autoreply.body')}
          placeholder={t('domainUsers.autoreply.bodyPlaceholder')}
          autosize
          minRows={5}
          maxRows={12}
          maxLength={AUTOREPLY_BODY_MAX}
          required={enabled}
          error={errors.body?.message}
        />
        {/* A CSS grid, not SimpleGrid: its responsive columns would inject a <style> the CSP refuses. */}
        <div className={classes.autoreplyTimes}>
          <Controller
            control={control}
            name="starts_on"
            render={({ field }) => (
              <DateField
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                label={t('domainUsers.autoreply.startsOn')}
                error={errors.starts_on?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="ends_on"
            render={({ field }) => (
              <DateField
                name={field.name}
                value={field.value}
                onChange={field.onChange}
                label={t('domainUsers.autoreply.endsOn')}
                error={errors.ends_on?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="interval_days"
            render={({ field }) => (
              <NumberInput
                ref={field.ref}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                label={t('domainUsers.autoreply.interval')}
                min={AUTOREPLY_INTERVAL_DAYS.min}
                max={AUTOREPLY_INTERVAL_DAYS.max}
                allowDecimal={false}
                allowNegative={false}
                suffix={` ${t('domainUsers.autoreply.days')}`}
                error={errors.interval_days?.message}
              />
            )}
          />
        </div>
        <Group gap={6} wrap="nowrap">
          <Text fz="xs" c="dimmed">
            {t('domainUsers.autoreply.datesHint')}
          </Text>
        </Group>
        <DialogActions
          submitLabel={t('domainUsers.autoreply.submit')}
          icon={<IconDeviceFloppy size={16} aria-hidden />}
          busy={isSubmitting}
          onCancel={close}
        />
      </Stack>
    </form>
  );
}
