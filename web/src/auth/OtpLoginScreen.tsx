import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { OTP_LENGTH, otpLoginPayloadSchema } from '@berth/contracts';
import { useOtpLogin } from '../api/authFlows.ts';
import { RouteStateMessage } from '../components/RouteStateMessage.tsx';
import { usePageTitle } from '../components/usePageTitle.ts';
import { FormAlert } from '../forms/FormAlert.tsx';
import { formErrorOf, useSchemaResolver } from '../forms/validation.ts';
import { BackToLogin } from './AuthLinks.tsx';
import { AuthHeading } from './AuthHeading.tsx';
import { OtpOffered } from './OtpOffered.tsx';
import { useSignedInLanding } from './useSignedInLanding.ts';
import classes from './AuthForms.module.css';

/** What /password/otp passes along (docs/product.md §4): the notice and the request's id. */
export interface OtpLoginState {
  notice: string;
  uniq_id: string;
}

const formSchema = otpLoginPayloadSchema.pick({ otp: true });
const FIELDS = ['otp'] as const;

function stateUniqId(state: unknown): string | null {
  if (typeof state !== 'object' || state === null) return null;
  const value = (state as Record<string, unknown>).uniq_id;
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * /password/otplogin: the e-mailed code. uniq_id comes from the navigation state or the query;
 * an `otp` in the query (the e-mail's link) fills the field and submits by itself.
 */
export function OtpLoginScreen() {
  return (
    <OtpOffered>
      <OtpLoginForm />
    </OtpOffered>
  );
}

function OtpLoginForm() {
  const { t } = useTranslation();
  const location = useLocation();
  const [search] = useSearchParams();
  const otpLogin = useOtpLogin();
  const land = useSignedInLanding();
  const [formError, setFormError] = useState<string | null>(null);
  usePageTitle(t('screens.otpLogin.title'));

  const uniqId = stateUniqId(location.state) ?? search.get('uniq_id') ?? '';
  const linkOtp = (search.get('otp') ?? '').trim().slice(0, OTP_LENGTH);

  const resolver = useSchemaResolver(formSchema);
  const {
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    setError,
  } = useForm({ resolver, defaultValues: { otp: linkOtp } });

  const submitWith = (autosubmit: boolean) =>
    handleSubmit(async ({ otp }) => {
      setFormError(null);
      try {
        const payload = autosubmit ? { uniq_id: uniqId, otp, autosubmit } : { uniq_id: uniqId, otp };
        await land(await otpLogin.mutateAsync(payload));
      } catch (error) {
        setFormError(formErrorOf(error, FIELDS, setError, t));
      }
    });

  // The link from the e-mail: submit once by itself (also when StrictMode runs effects twice).
  const autoSubmitted = useRef(false);
  const autoSubmit = submitWith(true);
  useEffect(() => {
    if (autoSubmitted.current || uniqId === '' || linkOtp === '') return;
    autoSubmitted.current = true;
    void autoSubmit();
  }, [autoSubmit, uniqId, linkOtp]);

  const onSubmit = submitWith(false);

  return (
    <Stack gap="lg">
      <AuthHeading title={t('screens.otpLogin.title')} description={t('screens.otpLogin.description')} />
      <RouteStateMessage />
      {uniqId === '' ? (
        <FormAlert kind="error" title={t('otp.missingTitle')}>
          <Stack gap={6} align="flex-start">
            <span>{t('otp.missing')}</span>
            <Anchor component={Link} to="/password/otp" fw={600} fz="sm">
              {t('otp.requestNew')}
            </Anchor>
          </Stack>
        </FormAlert>
      ) : (
        <>
          {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
          <form onSubmit={(event) => void onSubmit(event)} noValidate>
            <Stack gap="md">
              <TextInput
                label={t('otp.codeLabel')}
                placeholder="000000"
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={OTP_LENGTH}
                autoFocus
                size="lg"
                classNames={{ input: classes.codeInput }}
                error={errors.otp?.message}
                {...register('otp')}
              />
              <Button type="submit" size="md" fullWidth loading={isSubmitting}>
                {t('login.submit')}
              </Button>
            </Stack>
          </form>
          <Text ta="center" fz="sm" c="dimmed">
            {t('otp.noCode')}{' '}
            <Anchor component={Link} to="/password/otp" fw={600} inherit>
              {t('otp.requestNew')}
            </Anchor>
          </Text>
        </>
      )}
      <BackToLogin />
    </Stack>
  );
}
