import { useState } from 'react';
import { Link } from 'react-router';
import { useForm } from 'react-hook-form';
import { Button, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { passwordForgotPayloadSchema } from '@berth/contracts';
import { usePasswordForgot } from '../api/authFlows.ts';
import { usePageTitle } from '../components/usePageTitle.ts';
import { FormAlert } from '../forms/FormAlert.tsx';
import { formErrorOf, useSchemaResolver } from '../forms/validation.ts';
import { translateServerText } from '../i18n/i18n.ts';
import { BackToLogin } from './AuthLinks.tsx';
import { AuthHeading } from './AuthHeading.tsx';
import classes from './AuthForms.module.css';

const FIELDS = ['email'] as const;

/** /password/forgot: e-mails a reset link (the answer is the same for unknown addresses). */
export function ForgotPasswordScreen() {
  const { t } = useTranslation();
  const forgot = usePasswordForgot();
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  usePageTitle(t('screens.forgotPassword.title'));

  const resolver = useSchemaResolver(passwordForgotPayloadSchema);
  const {
    formState: { errors, isSubmitting },
    handleSubmit,
    register,
    setError,
  } = useForm({ resolver, defaultValues: { email: '' } });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await forgot.mutateAsync(values);
      setSent(answer.message ?? t('forgot.sent'));
    } catch (error) {
      setFormError(formErrorOf(error, FIELDS, setError, t));
    }
  });

  if (sent !== null) {
    return (
      <Stack gap="lg">
        <div className={classes.result}>
          <ThemeIcon size={56} radius="xl" variant="light" color="green" aria-hidden>
            <IconMailCheck size={28} stroke={1.6} />
          </ThemeIcon>
          <AuthHeading title={t('forgot.sentTitle')} />
        </div>
        <FormAlert kind="success">{translateServerText(sent)}</FormAlert>
        <Text fz="sm" c="dimmed" ta="center">
          {t('forgot.sentHint')}
        </Text>
        <Button component={Link} to="/login" size="md" fullWidth>
          {t('auth.backToLogin')}
        </Button>
        <Button
          variant="subtle"
          size="sm"
          onClick={() => {
            setSent(null);
          }}
        >
          {t('forgot.again')}
        </Button>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <AuthHeading
        title={t('screens.forgotPassword.title')}
        description={t('screens.forgotPassword.description')}
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
            {t('forgot.submit')}
          </Button>
        </Stack>
      </form>
      <BackToLogin />
    </Stack>
  );
}
