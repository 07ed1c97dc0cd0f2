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
import { useAnswerForm } from '../forms/useAnswerForm.ts';
import { withNewPassword } from '../forms/validation.ts';
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
  usePageTitle(t('screens.changePassword.title'));
  const { form, onSubmit, formError, done, dismissDone } = useAnswerForm({
    schema,
    defaultValues: { uid: '', user_password_old: '', user_password: '', user_password_confirmation: '' },
    fields: FIELDS,
    send: (values) => change.mutateAsync(values),
    doneText: t('changePassword.done'),
    afterDone: (values) => ({ ...values, user_password_old: '', user_password: '', user_password_confirmation: '' }),
    alertOf: (error, applyFields) => {
      const combined = error instanceof ApiError ? error.fieldErrors[UID_AND_PASSWORD] : undefined;
      const rest = applyFields();
      // The combined error is joined above the form; the other fields' errors still go under their fields.
      return combined && combined.length > 0 ? combined.map(translateServerText).join(' ') : rest;
    },
  });
  const {
    formState: { errors, isSubmitting },
    register,
  } = form;

  return (
    <Stack gap="lg">
      <AuthHeading title={t('screens.changePassword.title')} description={t('screens.changePassword.description')} />
      {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
      {done ? (
        <FormAlert kind="success" onClose={dismissDone}>
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
