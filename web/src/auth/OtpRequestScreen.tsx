import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useForm } from 'react-hook-form';
import { Button, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { otpRequestPayloadSchema } from '@berth/contracts';
import { useOtpRequest } from '../api/authFlows.ts';
import { usePageTitle } from '../components/usePageTitle.ts';
import { FormAlert } from '../forms/FormAlert.tsx';
import { formErrorOf, useSchemaResolver } from '../forms/validation.ts';
import { BackToLogin } from './AuthLinks.tsx';
import { AuthHeading } from './AuthHeading.tsx';
import type { OtpLoginState } from './OtpLoginScreen.tsx';

const FIELDS = ['email'] as const;

/** /password/otp: e-mails a one-time login code, then on to /password/otplogin. */
export function OtpRequestScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const request = useOtpRequest();
  const [formError, setFormError] = useState<string | null>(null);
  usePageTitle(t('screens.otpRequest.title'));

  const resolver = useSchemaResolver(otpRequestPayloadSchema);
  const {
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    setError,
  } = useForm({ resolver, defaultValues: { email: '' } });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await request.mutateAsync(values);
      const state: OtpLoginState = { notice: answer.notice, uniq_id: answer.data.uniq_id };
      await navigate('/password/otplogin', { state });
    } catch (error) {
      setFormError(formErrorOf(error, FIELDS, setError, t));
    }
  });

  return (
    <Stack gap="lg">
      <AuthHeading
        title={t('screens.otpRequest.title')}
        description={t('screens.otpRequest.description')}
      />
      {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}

      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('fields.email')}
            placeholder={t('login.emailPlaceholder')}
            type="email"
            autoComplete="email"
            autoCapitalize="none"
            autoCorrect="off"
            spellCheck={false}
            autoFocus
            size="md"
            error={errors.email?.message}
            {...register('email')}
          />
          <Button type="submit" size="md" fullWidth loading={isSubmitting}>
            {t('otp.send')}
          </Button>
        </Stack>
      </form>
      <BackToLogin />
    </Stack>
  );
}
