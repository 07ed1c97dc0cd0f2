import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Stack, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DomainUser } from '@berth/contracts';
import { AppModal } from '../../../components/AppModal.tsx';
import { DialogActions } from '../../../components/DialogActions.tsx';
import modalClasses from '../../../components/AppModal.module.css';
import { useDomainUserPasswordReset } from '../../../api/domainUsers.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { NewPasswordFields } from '../../../forms/NewPasswordFields.tsx';
import { formErrorOf, useSchemaResolver } from '../../../forms/validation.ts';
import { passwordResetSchema } from './accountForms.ts';

const FIELDS = ['password', 'password_confirmation'] as const;
const EMPTY = { password: '', password_confirmation: '' };

interface PasswordResetDialogProps {
  domainId: number;
  /** The account whose password is set; null closes the dialog. */
  account: DomainUser | null;
  onClose: () => void;
}

/** The owner or an admin sets a new password for an account (its user needs no old one). */
export function PasswordResetDialog({ domainId, account, onClose }: PasswordResetDialogProps) {
  const { t } = useTranslation();
  const resetPassword = useDomainUserPasswordReset(domainId);
  const [formError, setFormError] = useState<string | null>(null);
  const opened = account !== null;

  const resolver = useSchemaResolver(passwordResetSchema);
  const {
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    reset,
    setError,
  } = useForm({ resolver, defaultValues: EMPTY });

  const close = () => {
    if (isSubmitting) return;
    reset(EMPTY);
    setFormError(null);
    onClose();
  };

  const onSubmit = handleSubmit(async (payload) => {
    if (!account) return;
    setFormError(null);
    try {
      const answer = await resetPassword.mutateAsync({ account, payload });
      pushMessage({ type: 'notice', data: answer.message ?? 'domainUsers.reset.done', timeout: NOTICE_TIMEOUT_MS });
      reset(EMPTY);
      onClose();
    } catch (error) {
      setFormError(formErrorOf(error, FIELDS, setError, t));
    }
  });

  return (
    <AppModal opened={opened} onClose={close} title={t('domainUsers.reset.title')}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <Text fz="sm" c="dimmed" className={modalClasses.body}>
            {t('domainUsers.reset.intro', { uid: account?.uid ?? '' })}
          </Text>
          {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
          <NewPasswordFields
            register={register}
            errors={errors}
            password="password"
            confirmation="password_confirmation"
            size="sm"
            dialogFocus
          />
          <DialogActions
            submitLabel={t('domainUsers.reset.submit')}
            icon={<IconKey size={16} aria-hidden />}
            busy={isSubmitting}
            onCancel={close}
          />
        </Stack>
      </form>
    </AppModal>
  );
}
