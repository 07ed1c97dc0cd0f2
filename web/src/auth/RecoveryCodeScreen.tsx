import { Link } from 'react-router';
import { Anchor, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { recoveryPayloadSchema } from '@berth/contracts';
import { useLogin2faRecovery } from '../api/authFlows.ts';
import { usePageTitle } from '../components/usePageTitle.ts';
import { SingleFieldForm } from '../forms/SingleFieldForm.tsx';
import { BackToLogin } from './AuthLinks.tsx';
import { AuthHeading } from './AuthHeading.tsx';
import { useSecondStep } from './useSecondStep.ts';
import classes from './AuthForms.module.css';

/**
 * /login2fa/recovery: the second login step with a one-time recovery code. Then to
 * /account/2fa (docs/product.md §4), where new codes can be generated.
 */
export function RecoveryCodeScreen() {
  const { t } = useTranslation();
  const recovery = useLogin2faRecovery();
  const submit = useSecondStep(recovery.mutateAsync, '/account/2fa');
  usePageTitle(t('screens.recovery.title'));

  return (
    <Stack gap="lg">
      <AuthHeading title={t('screens.recovery.title')} description={t('screens.recovery.description')} />
      <SingleFieldForm
        schema={recoveryPayloadSchema}
        name="code"
        submitLabel={t('twoFactor.verify')}
        onSubmit={submit}
        field={{
          label: t('twoFactor.recoveryLabel'),
          description: t('twoFactor.recoveryHint'),
          placeholder: 'XXXX-XXXX-XXXX-XXXX',
          autoComplete: 'off',
          autoCapitalize: 'characters',
          autoCorrect: 'off',
          spellCheck: false,
          size: 'lg',
          classNames: { input: classes.recoveryInput },
        }}
      />

      <Text ta="center" fz="sm" c="dimmed">
        <Anchor component={Link} to="/login2fa" fw={600} inherit>
          {t('twoFactor.useApp')}
        </Anchor>
      </Text>
      <BackToLogin />
    </Stack>
  );
}
