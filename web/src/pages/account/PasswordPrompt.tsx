import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Group, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { reauthPayloadSchema } from '@berth/contracts';
import { FormAlert } from '../../forms/FormAlert.tsx';
import { PasswordField } from '../../forms/PasswordField.tsx';
import { formErrorOf, useSchemaResolver } from '../../forms/validation.ts';
import classes from './TwoFactor.module.css';

interface PasswordPromptProps {
  /** The submit button's label: the action the password confirms. */
  submitLabel: string;
  submitColor?: string;
  submitIcon?: ReactNode;
  /** Rejects with the ApiError of the call the password is for. */
  onConfirm: (password: string) => Promise<unknown>;
  onCancel?: () => void;
  autoFocus?: boolean;
}

const FIELDS = ['password'] as const;

/** "Current password" and a button: what the 2FA settings ask before each change. */
export function PasswordPrompt({ submitLabel, submitColor, submitIcon, onConfirm, onCancel, autoFocus = false }: PasswordPromptProps) {
  const { t } = useTranslation();
  const [formError, setFormError] = useState<string | null>(null);
  const resolver = useSchemaResolver(reauthPayloadSchema);
  const {
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    setError,
  } = useForm({ resolver, defaultValues: { password: '' } });

  const onSubmit = handleSubmit(async ({ password }) => {
    setFormError(null);
    try {
      await onConfirm(password);
    } catch (error) {
      setFormError(formErrorOf(error, FIELDS, setError, t));
    }
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className={classes.prompt}>
      <Stack gap="md">
        {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
        <PasswordField
          label={t('fields.currentPassword')}
          autoComplete="current-password"
          autoFocus={autoFocus}
          error={errors.password?.message}
          {...register('password')}
        />
        <Group gap="sm">
          <Button type="submit" color={submitColor} loading={isSubmitting} leftSection={submitIcon}>
            {submitLabel}
          </Button>
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={isSubmitting}>
              {t('app.cancel')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </form>
  );
}
