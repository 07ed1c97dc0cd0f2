import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { twoFactorEnablePayloadSchema } from '@berth/contracts';
import { useTwoFactorEnable, type RecoveryCodesAnswer, type TwoFactorSetup as Setup } from '../../api/account.ts';
import { CopyValueButton } from '../../components/CopyValueButton.tsx';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { formErrorOf, useSchemaResolver } from '../../forms/validation.ts';
import classes from './TwoFactor.module.css';

interface TwoFactorSetupProps {
  setup: Setup;
  onEnabled: (answer: RecoveryCodesAnswer) => void;
  onCancel: () => void;
}

const FIELDS = ['code'] as const;

/** The secret in groups of four, easier to type into an app by hand. */
function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** Scan the QR code (or type the key), then confirm with a first code from the app. */
export function TwoFactorSetup({ setup, onEnabled, onCancel }: TwoFactorSetupProps) {
  const { t } = useTranslation();
  const enable = useTwoFactorEnable();
  const [formError, setFormError] = useState<string | null>(null);
  const resolver = useSchemaResolver(twoFactorEnablePayloadSchema);
  const {
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    setError,
  } = useForm({ resolver, defaultValues: { code: '' } });

  const onSubmit = handleSubmit(async ({ code }) => {
    setFormError(null);
    try {
      onEnabled(await enable.mutateAsync(code));
    } catch (error) {
      setFormError(formErrorOf(error, FIELDS, setError, t));
    }
  });

  return (
    <div className={classes.setup}>
      <ol className={classes.steps}>
        <li className={classes.step}>
          <Text fw={600}>{t('twoFactorPage.scanTitle')}</Text>
          <Text fz="sm" c="dimmed">
            {t('twoFactorPage.scanHint')}
          </Text>
          <div className={classes.qrRow}>
            <img src={setup.qr_code} alt={t('twoFactorPage.qrAlt')} width={176} height={176} className={classes.qr} />
            <div className={classes.secretBox}>
              <Text fz="sm" fw={600}>
                {t('twoFactorPage.manualTitle')}
              </Text>
              <Text fz="xs" c="dimmed">
                {t('twoFactorPage.manualHint')}
              </Text>
              <Group gap="xs" wrap="nowrap" align="center">
                <code className={classes.secret} data-testid="twofactor-secret">
                  {groupSecret(setup.secret)}
                </code>
                <CopyValueButton value={setup.secret} label={t('twoFactorPage.copyKey')} copiedLabel={t('twoFactorPage.copied')} />
              </Group>
              <Anchor href={setup.otpauth_url} fz="sm" fw={500} className={classes.openApp}>
                {t('twoFactorPage.openApp')}
              </Anchor>
            </div>
          </div>
        </li>
        <li className={classes.step}>
          <Text fw={600}>{t('twoFactorPage.confirmTitle')}</Text>
          <form onSubmit={(event) => void onSubmit(event)} noValidate className={classes.prompt}>
            <Stack gap="md">
              {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
              <TextInput
                label={t('twoFactor.codeLabel')}
                description={t('twoFactorPage.confirmHint')}
                placeholder="000000"
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={7}
                size="md"
                classNames={{ input: classes.codeInput }}
                error={errors.code?.message}
                {...register('code')}
              />
              <Group gap="sm">
                <Button type="submit" loading={isSubmitting}>
                  {t('twoFactorPage.confirm')}
                </Button>
                <Button variant="default" onClick={onCancel} disabled={isSubmitting}>
                  {t('app.cancel')}
                </Button>
              </Group>
            </Stack>
          </form>
        </li>
      </ol>
    </div>
  );
}
