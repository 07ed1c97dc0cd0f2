import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { login2faPayloadSchema } from '@berth/contracts';
import { useLogin2fa } from '../api/authFlows.ts';
import { ApiError } from '../api/client.ts';
import { passkeyCancelled, usePasskeyLogin } from '../api/passkeys.ts';
import { FormAlert } from '../forms/FormAlert.tsx';
import { describeError } from '../forms/validation.ts';
import { RouteStateMessage } from '../components/RouteStateMessage.tsx';
import { usePageTitle } from '../components/usePageTitle.ts';
import { SingleFieldForm } from '../forms/SingleFieldForm.tsx';
import { BackToLogin } from './AuthLinks.tsx';
import { AuthHeading } from './AuthHeading.tsx';
import { useSecondStep } from './useSecondStep.ts';
import classes from './AuthForms.module.css';

/** /login2fa: the second login step with a code from the authenticator app. */
export function TwoFactorScreen() {
  const { t } = useTranslation();
  const login2fa = useLogin2fa();
  const submit = useSecondStep(login2fa.mutateAsync);
  const passkey = usePasskeyLogin('login2fa');
  const withPasskey = useSecondStep(() => passkey.mutateAsync());
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const passkeysWork = typeof window.PublicKeyCredential === 'function';
  usePageTitle(t('screens.twoFactor.title'));

  return (
    <Stack gap="lg">
      <AuthHeading title={t('screens.twoFactor.title')} description={t('screens.twoFactor.description')} />
      <RouteStateMessage />
      <SingleFieldForm
        schema={login2faPayloadSchema}
        name="code"
        submitLabel={t('twoFactor.verify')}
        onSubmit={submit}
        field={{
          label: t('twoFactor.codeLabel'),
          placeholder: '000000',
          autoComplete: 'one-time-code',
          inputMode: 'numeric',
          maxLength: 7,
          size: 'lg',
          classNames: { input: classes.codeInput },
        }}
      />

      {passkeysWork ? (
        <Stack gap="xs">
          {passkeyError ? <FormAlert kind="error">{passkeyError}</FormAlert> : null}
          <Button
            variant="default"
            fullWidth
            loading={passkey.isPending}
            leftSection={<IconFingerprint size={18} aria-hidden />}
            onClick={() => {
              setPasskeyError(null);
              withPasskey(undefined).catch((error: unknown) => {
                // Closing the browser's passkey dialog is no failure to report.
                if (passkeyCancelled(error)) return;
                setPasskeyError(error instanceof ApiError ? describeError(error, t) : t('passkeys.loginFailed'));
              });
            }}
          >
            {t('passkeys.login')}
          </Button>
        </Stack>
      ) : null}

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
