import { useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Controller, useForm } from 'react-hook-form';
import { Alert, Anchor, Button, Checkbox, Divider, Group, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconFingerprint, IconMail } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { loginPayloadSchema, offersOtpLogin, type LoginPayload } from '@berth/contracts';
import { ApiError } from '../api/client.ts';
import { useLogin, useTenant } from '../api/queries.ts';
import { passkeyCancelled, usePasskeyAutofill, usePasskeyLogin } from '../api/passkeys.ts';
import { readRouteState, RouteStateMessage } from '../components/RouteStateMessage.tsx';
import { usePageTitle } from '../components/usePageTitle.ts';
import { usePrerenderHandoff } from '../prerender/handoff.ts';
import { chooseLanguage, currentLanguage, isLanguageCode } from '../i18n/i18n.ts';
import { IdentifierField } from '../forms/IdentifierField.tsx';
import { PasswordField } from '../forms/PasswordField.tsx';
import { applyFieldErrors, describeError, useSchemaResolver } from '../forms/validation.ts';
import { AuthHeading } from './AuthHeading.tsx';
import { returnTarget } from './useSignedInLanding.ts';
import classes from './LoginScreen.module.css';

type LoginValues = z.output<typeof loginPayloadSchema>;

const LOGIN_FIELDS = ['email', 'password', 'remember'] as const;

/** /login/:email? — docs/product.md §2. */
export function LoginScreen() {
  const { t } = useTranslation();
  const params = useParams<{ email?: string }>();
  const location = useLocation();
  const navigate = useNavigate();
  const tenant = useTenant();
  const login = useLogin();
  const [formError, setFormError] = useState<string | null>(null);
  usePageTitle(t('login.pageTitle'));

  const { from } = readRouteState(location.state);
  const resolver = useSchemaResolver(loginPayloadSchema);
  const {
    control,
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    setError,
    setValue,
  } = useForm<LoginPayload, unknown, LoginValues>({
    resolver,
    defaultValues: { email: params.email ?? '', password: '', remember: true },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await login.mutateAsync(values);
      if (answer.data.status === 'two_factor_required') {
        await navigate('/login2fa', { state: from ? { from } : null });
        return;
      }
      await navigate(returnTarget(from), { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.isValidation) {
        const rest = applyFieldErrors(error, LOGIN_FIELDS, setError);
        if (rest.length > 0 || Object.keys(error.fieldErrors).length === 0) {
          setFormError([describeError(error, t), ...rest].join(' '));
        }
        return;
      }
      setFormError(describeError(error, t));
    }
  });

  const showOtp = tenant.data ? offersOtpLogin(tenant.data.id) : false;
  const passkeyLogin = usePasskeyLogin();
  // The build's render of this screen (prerender/loginPage.tsx) has no window: it shows the button,
  // as every current browser does.
  const passkeysWork = typeof window === 'undefined' || typeof window.PublicKeyCredential === 'function';
  const passkeyFailed = (error: Error) => setFormError(error instanceof ApiError ? describeError(error, t) : t('passkeys.loginFailed'));
  const signedIn = () => void navigate(returnTarget(from), { replace: true });
  // Set by the take-over below (a layout effect, before the autofill's effect).
  const passkeyReplayed = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  usePasskeyAutofill(signedIn, passkeyFailed, () => passkeyReplayed.current);
  const withPasskey = () => {
    setFormError(null);
    passkeyLogin.mutate(undefined, {
      onSuccess: signedIn,
      onError: (error) => {
        // Closing the browser's passkey dialog is no failure to report.
        if (!passkeyCancelled(error)) passkeyFailed(error);
      },
    });
  };

  // What the visitor typed into the prerendered screen before the app was there is this form's,
  // with the focus where it was; a form sent meanwhile is sent now (scripts/login-boot.js held it).
  // In whatever language each is: the page may be in the server's pick and the app in this device's.
  usePrerenderHandoff(({ values, focused, submitted, clicked, language }) => {
    if (typeof values.email === 'string') setValue('email', values.email);
    if (typeof values.password === 'string') setValue('password', values.password);
    if (typeof values.remember === 'boolean') setValue('remember', values.remember);
    // The picker's value is a choice only where the visitor changed it: untouched, it shows the
    // language the page was rendered in, not the one picked on this device before.
    const picked = values.language;
    if (typeof picked === 'string' && isLanguageCode(picked) && picked !== language && picked !== currentLanguage()) {
      chooseLanguage(picked);
    }
    if (focused && LOGIN_FIELDS.some((name) => name === focused.name)) {
      // In this same task: react-hook-form's setFocus waits for a timer, and a key typed meanwhile
      // went to no field at all (one in 25 takeovers of a visitor typing, e2e login.spec.ts).
      const field = formRef.current?.elements.namedItem(focused.name);
      if (field instanceof HTMLInputElement) {
        field.focus();
        if (field.type !== 'checkbox' && focused.start !== null) field.setSelectionRange(focused.start, focused.end ?? focused.start);
      }
    }
    if (submitted) void onSubmit();
    else if (clicked === 'passkey') {
      passkeyReplayed.current = true;
      withPasskey();
    }
  });

  // Someone already signed in who opens /login is sent on by the server (server/src/http/web-app.ts).
  return (
    <Stack gap="lg">
      <AuthHeading title={t('login.heading')} description={t('login.subtitle')} />
      <RouteStateMessage />
      {formError ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />}>
          {formError}
        </Alert>
      ) : null}

      <form ref={formRef} onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <IdentifierField
            label={t('login.email')}
            placeholder={t('login.emailPlaceholder')}
            autoComplete="username webauthn"
            error={errors.email?.message}
            {...register('email')}
          />
          <PasswordField
            label={t('login.password')}
            autoComplete="current-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <Group justify="space-between" gap="sm" wrap="wrap">
            <Controller
              control={control}
              name="remember"
              render={({ field: { value, onChange, onBlur, name, ref } }) => (
                <Checkbox
                  label={t('login.remember')}
                  name={name}
                  ref={ref}
                  checked={value ?? true}
                  onChange={(event) => {
                    onChange(event.currentTarget.checked);
                  }}
                  onBlur={onBlur}
                  error={errors.remember?.message}
                />
              )}
            />
            <Anchor component={Link} to="/password/forgot" fz="sm" fw={500}>
              {t('login.forgot')}
            </Anchor>
          </Group>
          <Button type="submit" size="md" fullWidth loading={isSubmitting} mt="xs">
            {t('login.submit')}
          </Button>
        </Stack>
      </form>

      {passkeysWork ? (
        <Button
          variant="default"
          size="md"
          fz="sm"
          fullWidth
          loading={passkeyLogin.isPending}
          onClick={withPasskey}
          // Pressed on the prerendered screen, it is pressed again when the app takes over.
          data-replay="passkey"
          leftSection={<IconFingerprint size={18} aria-hidden />}
        >
          {t('passkeys.login')}
        </Button>
      ) : null}

      {showOtp ? (
        <>
          <Divider label={t('login.or')} labelPosition="center" />
          <Button
            component={Link}
            to="/password/otp"
            variant="default"
            size="md"
            fz="sm"
            fullWidth
            leftSection={<IconMail size={18} aria-hidden />}
            classNames={{ root: classes.wrappingButton, label: classes.wrappingLabel }}
          >
            {t('login.otp')}
          </Button>
        </>
      ) : null}

      <Text ta="center" fz="sm" c="dimmed">
        {t('login.noAccount')}{' '}
        <Anchor component={Link} to="/register" fw={600} inherit>
          {t('login.register')}
        </Anchor>
      </Text>
    </Stack>
  );
}
