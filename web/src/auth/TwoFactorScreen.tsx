import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useForm } from 'react-hook-form';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { login2faPayloadSchema } from '@berth/contracts';
import { ApiError } from '../api/client.ts';
import { useLogin2fa } from '../api/authFlows.ts';
import { RouteStateMessage } from '../components/RouteStateMessage.tsx';
import { usePageTitle } from '../components/usePageTitle.ts';
import { FormAlert } from '../forms/FormAlert.tsx';
import { formErrorOf, useSchemaResolver } from '../forms/validation.ts';
import { BackToLogin } from './AuthLinks.tsx';
import { AuthHeading } from './AuthHeading.tsx';
import { useSignedInLanding } from './useSignedInLanding.ts';
import classes from './AuthForms.module.css';

const FIELDS = ['code'] as const;

/** /login2fa: the second login step with a code from the authenticator app. */
export function TwoFactorScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const login2fa = useLogin2fa();
  const land = useSignedInLanding();
  const [formError, setFormError] = useState<string | null>(null);
  usePageTitle(t('screens.twoFactor.title'));

  const resolver = useSchemaResolver(login2faPayloadSchema);
  const {
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    setError,
  } = useForm({ resolver, defaultValues: { code: '' } });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await land(await login2fa.mutateAsync(values));
    } catch (error) {
      // No login is waiting for its second factor (any more): start again at the login.
      if (error instanceof ApiError && error.isUnauthenticated) {
        await navigate('/login', { replace: true, state: { message: error.message } });
        return;
      }
      setFormError(formErrorOf(error, FIELDS, setError, t));
    }
  });

  return (
    <Stack gap="lg">
      <AuthHeading
        title={t('screens.twoFactor.title')}
        description={t('screens.twoFactor.description')}
      />
      <RouteStateMessage />
      {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}

      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('twoFactor.codeLabel')}
            placeholder="000000"
            autoComplete="one-time-code"
            inputMode="numeric"
            autoFocus
            maxLength={7}
            size="lg"
            classNames={{ input: classes.codeInput }}
            error={errors.code?.message}
            {...register('code')}
          />
          <Button type="submit" size="md" fullWidth loading={isSubmitting}>
            {t('twoFactor.verify')}
          </Button>
        </Stack>
      </form>

      <Text ta="center" fz="sm" c="dimmed">
        {t('twoFactor.noApp')}{' '}
        <Anchor component={Link} to="/login2fa/recovery" fw={600} inherit>
          {t('twoFactor.useRecovery')}
        </Anchor>
      </Text>
      <BackToLogin />
    </Stack>
  );
}
