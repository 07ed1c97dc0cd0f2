import { useEffect, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Stack } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DomainUser } from '@berth/contracts';
import { AppModal } from '../../../components/AppModal.tsx';
import { DialogActions } from '../../../components/DialogActions.tsx';
import { useDomainUserUpdate } from '../../../api/domainUsers.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { formErrorOf, useSchemaResolver } from '../../../forms/validation.ts';
import { QUOTA_DEFAULT_MB, quotaSchema } from './accountForms.ts';
import { QuotaInput } from './QuotaInput.tsx';

const FIELDS = ['quota_mb'] as const;

interface QuotaDialogProps {
  domainId: number;
  /** The account whose quota changes; null closes the dialog. */
  account: DomainUser | null;
  onClose: () => void;
}

/** A new quota for one account. */
export function QuotaDialog({ domainId, account, onClose }: QuotaDialogProps) {
  const { t } = useTranslation();
  const update = useDomainUserUpdate(domainId);
  const [formError, setFormError] = useState<string | null>(null);
  const opened = account !== null;

  const resolver = useSchemaResolver(quotaSchema);
  const {
    control,
    formState: { errors, isSubmitting },
    handleSubmit,
    reset,
    setError,
  } = useForm({ resolver, defaultValues: { quota_mb: account?.quota_mb ?? QUOTA_DEFAULT_MB } });

  // Each opening starts from that account's quota.
  useEffect(() => {
    if (account) reset({ quota_mb: account.quota_mb });
  }, [account, reset]);

  const close = () => {
    if (isSubmitting) return;
    setFormError(null);
    onClose();
  };

  const onSubmit = handleSubmit(async ({ quota_mb }) => {
    if (!account) return;
    setFormError(null);
    try {
      const answer = await update.mutateAsync({ account, changes: { quota_mb } });
      pushMessage({ type: 'notice', data: answer.message ?? 'domainUsers.saved', timeout: NOTICE_TIMEOUT_MS });
      onClose();
    } catch (error) {
      setFormError(formErrorOf(error, FIELDS, setError, t));
    }
  });

  return (
    <AppModal opened={opened} onClose={close} title={t('domainUsers.quotaDialog.title', { uid: account?.uid ?? '' })}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
          <Controller
            control={control}
            name="quota_mb"
            render={({ field }) => (
              <QuotaInput
                ref={field.ref}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={errors.quota_mb?.message}
                autoFocus
              />
            )}
          />
          <DialogActions
            submitLabel={t('domainUsers.quotaDialog.submit')}
            icon={<IconDeviceFloppy size={16} aria-hidden />}
            busy={isSubmitting}
            onCancel={close}
          />
        </Stack>
      </form>
    </AppModal>
  );
}
