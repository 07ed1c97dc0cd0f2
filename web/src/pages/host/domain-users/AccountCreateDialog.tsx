import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Stack, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/AppModal.tsx';
import { DialogActions } from '../../../components/DialogActions.tsx';
import { useDomainUserCreate } from '../../../api/domainUsers.ts';
import { NOTICE_TIMEOUT_MS, pushMessage } from '../../../components/messageStore.ts';
import { FormAlert } from '../../../forms/FormAlert.tsx';
import { SwitchField } from '../../../forms/SwitchField.tsx';
import { NewPasswordFields } from '../../../forms/NewPasswordFields.tsx';
import { formErrorOf, useSchemaResolver } from '../../../forms/validation.ts';
import { accountCreateSchema, QUOTA_DEFAULT_MB, type AccountCreateValues } from './accountForms.ts';
import { QuotaInput } from './QuotaInput.tsx';
import classes from './DomainPages.module.css';

const FIELDS = ['uid', 'password', 'password_confirmation', 'quota_mb', 'enabled'] as const;
const EMPTY: AccountCreateValues = { uid: '', password: '', password_confirmation: '', quota_mb: QUOTA_DEFAULT_MB, enabled: true };

interface AccountCreateDialogProps {
  opened: boolean;
  onClose: () => void;
  domainId: number;
  /** The domain as people write it, shown after the local part. */
  domainText: string;
}

/** "Add an account": local part @ domain, password twice (the panel's policy), quota, enabled. */
export function AccountCreateDialog({ opened, onClose, domainId, domainText }: AccountCreateDialogProps) {
  const { t } = useTranslation();
  const create = useDomainUserCreate(domainId);
  const [formError, setFormError] = useState<string | null>(null);

  const resolver = useSchemaResolver(accountCreateSchema);
  const {
    control,
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    reset,
    setError,
  } = useForm({ resolver, defaultValues: EMPTY });
  const localPart = useWatch({ control, name: 'uid' }).trim();

  const close = () => {
    if (isSubmitting) return;
    reset(EMPTY);
    setFormError(null);
    onClose();
  };

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await create.mutateAsync(values);
      pushMessage({ type: 'notice', data: answer.message ?? 'domainUsers.created', timeout: NOTICE_TIMEOUT_MS });
      reset(EMPTY);
      onClose();
    } catch (error) {
      setFormError(formErrorOf(error, FIELDS, setError, t));
    }
  });

  return (
    <AppModal opened={opened} onClose={close} title={t('domainUsers.create.title')}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
          <TextInput
            data-autofocus
            label={t('domainUsers.create.localPart')}
            description={
              localPart && !localPart.includes('@')
                ? t('domainUsers.create.addressIs', { address: `${localPart}@${domainText}` })
                : t('domainUsers.create.localPartHint')
            }
            placeholder="info"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            error={errors.uid?.message}
            inputContainer={(input) => (
              <div className={classes.suffixed}>
                {input}
                <span className={classes.suffix} title={`@${domainText}`} aria-hidden>
                  @{domainText}
                </span>
              </div>
            )}
            {...register('uid')}
          />
          <NewPasswordFields register={register} errors={errors} password="password" confirmation="password_confirmation" size="sm" first />
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
              />
            )}
          />
          <SwitchField
            control={control}
            name="enabled"
            label={t('domainUsers.create.enabled')}
            description={t('domainUsers.create.enabledHint')}
            error={errors.enabled?.message}
          />
          <DialogActions
            submitLabel={t('domainUsers.create.submit')}
            icon={<IconPlus size={16} aria-hidden />}
            busy={isSubmitting}
            onCancel={close}
          />
        </Stack>
      </form>
    </AppModal>
  );
}
