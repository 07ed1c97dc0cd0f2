import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { domainUserPasswordPayloadSchema } from '@berth/contracts';
import { ApiError } from '../api/client.ts';
import { useDomainUserPasswordChange } from '../api/authFlows.ts';
import { usePageTitle } from '../components/usePageTitle.ts';
import { FormAlert } from '../forms/FormAlert.tsx';
import { IdentifierField } from '../forms/IdentifierField.tsx';
import { NewPasswordFields } from '../forms/NewPasswordFields.tsx';
import { PasswordField } from '../forms/PasswordField.tsx';
import { formErrorOf, useSchemaResolver, withNewPassword } from '../forms/validation.ts';
import { translateServerText } from '../i18n/i18n.ts';
import { BackToLogin } from './AuthLinks.tsx';
import { AuthHeading } from './AuthHeading.tsx';

const schema = withNewPassword(domainUserPasswordPayloadSchema, 'user_password', 'user_password_confirmation');
const FIELDS = ['uid', 'user_password_old', 'user_password', 'user_password_confirmation'] as const;

/** The server's combined "wrong uid or password" error, shown above the form (docs/product.md §8). */
const UID_AND_PASSWORD = 'valid_uid_and_password';

/** /change-password: a mailbox or FTP user of a domain changes their own password. */
export function ChangePasswordScreen() {
  const { t } = useTranslation();
  const change = useDomainUserPasswordChange();
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  usePageTitle(t('screens.changePassword.title'));

  const resolver = useSchemaResolver(schema);
  const {
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    reset,
    setError,
  } = useForm({
    resolver,
    defaultValues: {
      uid: '',
      user_password_old: '',
      user_password: '',
      user_password_confirmation: '',
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    setDone(null);
    try {
      const answer = await change.mutateAsync(values);
      setDone(answer.message ?? t('changePassword.done'));
      reset({ ...values, user_password_old: '', user_password: '', user_password_confirmation: '' });
    } catch (error) {
      const combined = error instanceof ApiError ? error.fieldErrors[UID_AND_PASSWORD] : undefined;
      if (combined && combined.length > 0) {
        // Joined above the form; the other fields' errors still go under their fields.
        formErrorOf(error, FIELDS, setError, t);
        setFormError(combined.map(translateServerText).join(' '));
        return;
      }
      setFormError(formErrorOf(error, FIELDS, setError, t));
    }
  });

  return (
    <Stack gap="lg">
      <AuthHeading title={t('screens.changePassword.title')} description={t('screens.changePassword.description')} />
      {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
      {done ? (
        <FormAlert
          kind="success"
          onClose={() => {
            setDone(null);
          }}
        >
          {translateServerText(done)}
        </FormAlert>
      ) : null}

      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <IdentifierField
            label={t('fields.uid')}
            placeholder={t('changePassword.uidPlaceholder')}
            autoComplete="username"
            error={errors.uid?.message}
            {...register('uid')}
          />
          <PasswordField
            label={t('fields.oldPassword')}
            autoComplete="current-password"
            error={errors.user_password_old?.message}
            {...register('user_password_old')}
          />
          <NewPasswordFields register={register} errors={errors} password="user_password" confirmation="user_password_confirmation" />
          <Button type="submit" size="md" fullWidth loading={isSubmitting}>
            {t('changePassword.submit')}
          </Button>
        </Stack>
      </form>
      <BackToLogin />
    </Stack>
  );
}
