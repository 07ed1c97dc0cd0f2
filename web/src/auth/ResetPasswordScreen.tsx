import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { Anchor, Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { passwordResetPayloadSchema } from '@berth/contracts';
import { ApiError } from '../api/client.ts';
import { usePasswordReset } from '../api/authFlows.ts';
import { usePageTitle } from '../components/usePageTitle.ts';
import { FormAlert } from '../forms/FormAlert.tsx';
import { NewPasswordFields } from '../forms/NewPasswordFields.tsx';
import { describeError, formErrorOf, useSchemaResolver, withNewPassword } from '../forms/validation.ts';
import { BackToLogin } from './AuthLinks.tsx';
import { AuthHeading } from './AuthHeading.tsx';
import { useSignedInLanding } from './useSignedInLanding.ts';

const schema = withNewPassword(passwordResetPayloadSchema, 'password', 'password_confirmation');
const FIELDS = ['password', 'password_confirmation'] as const;

/** /password/reset/:uniq_id/:token: the link from the e-mail; signs in when it works. */
export function ResetPasswordScreen() {
  const { t } = useTranslation();
  const { uniq_id: uniqId = '', token = '' } = useParams<{ uniq_id: string; token: string }>();
  const reset = usePasswordReset();
  const land = useSignedInLanding();
  const [formError, setFormError] = useState<string | null>(null);
  // A 422 without field errors: the link itself is invalid or has expired.
  const [linkError, setLinkError] = useState<string | null>(null);
  usePageTitle(t('screens.resetPassword.title'));

  const resolver = useSchemaResolver(schema);
  const {
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    setError,
  } = useForm({ resolver, defaultValues: { password: '', password_confirmation: '' } });

  const onSubmit = handleSubmit(async (payload) => {
    setFormError(null);
    setLinkError(null);
    try {
      await land(await reset.mutateAsync({ uniqId, token, payload }));
    } catch (error) {
      if (error instanceof ApiError && error.isValidation && Object.keys(error.fieldErrors).length === 0) {
        setLinkError(describeError(error, t));
        return;
      }
      setFormError(formErrorOf(error, FIELDS, setError, t));
    }
  });

  return (
    <Stack gap="lg">
      <AuthHeading title={t('screens.resetPassword.title')} description={t('screens.resetPassword.description')} />
      {linkError ? (
        <FormAlert kind="error" title={t('reset.linkInvalid')}>
          <Stack gap={6} align="flex-start">
            <span>{linkError}</span>
            <Anchor component={Link} to="/password/forgot" fw={600} fz="sm">
              {t('reset.requestNew')}
            </Anchor>
          </Stack>
        </FormAlert>
      ) : null}
      {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}

      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <NewPasswordFields register={register} errors={errors} password="password" confirmation="password_confirmation" autoFocus />
          <Button type="submit" size="md" fullWidth loading={isSubmitting}>
            {t('reset.submit')}
          </Button>
        </Stack>
      </form>
      <BackToLogin />
    </Stack>
  );
}
