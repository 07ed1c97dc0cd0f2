import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useForm } from 'react-hook-form';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { recoveryPayloadSchema } from '@berth/contracts';
import { ApiError } from '../api/client.ts';
import { useLogin2faRecovery } from '../api/authFlows.ts';
import { usePageTitle } from '../components/usePageTitle.ts';
import { FormAlert } from '../forms/FormAlert.tsx';
import { formErrorOf, useSchemaResolver } from '../forms/validation.ts';
import { BackToLogin } from './AuthLinks.tsx';
import { AuthHeading } from './AuthHeading.tsx';
import { useSignedInLanding } from './useSignedInLanding.ts';
import classes from './AuthForms.module.css';

const FIELDS = ['code'] as const;

/**
 * /login2fa/recovery: the second login step with a one-time recovery code. Then to
 * /account/2fa (SPEC.md section 4), where new codes can be generated.
 */
export function RecoveryCodeScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const recovery = useLogin2faRecovery();
  const land = useSignedInLanding();
  const [formError, setFormError] = useState<string | null>(null);
  usePageTitle(t('screens.recovery.title'));

  const resolver = useSchemaResolver(recoveryPayloadSchema);
  const {
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    setError,
  } = useForm({ resolver, defaultValues: { code: '' } });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await land(await recovery.mutateAsync(values), '/account/2fa');
    } catch (error) {
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
        title={t('screens.recovery.title')}
        description={t('screens.recovery.description')}
      />
      {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}

      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('twoFactor.recoveryLabel')}
            description={t('twoFactor.recoveryHint')}
            placeholder="XXXX-XXXX-XXXX-XXXX"
            autoComplete="off"
            autoCapitalize="characters"
            autoCorrect="off"
            spellCheck={false}
            autoFocus
            size="lg"
            classNames={{ input: classes.recoveryInput }}
            error={errors.code?.message}
            {...register('code')}
          />
          <Button type="submit" size="md" fullWidth loading={isSubmitting}>
            {t('twoFactor.verify')}
          </Button>
        </Stack>
      </form>

      <Text ta="center" fz="sm" c="dimmed">
        <Anchor component={Link} to="/login2fa" fw={600} inherit>
          {t('twoFactor.useApp')}
        </Anchor>
      </Text>
      <BackToLogin />
    </Stack>
  );
}
