import { useState } from 'react';
import { Link } from 'react-router';
import { Button, Stack, Text } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { passwordForgotPayloadSchema } from '@berth/contracts';
import { usePasswordForgot } from '../api/authFlows.ts';
import { usePageTitle } from '../components/usePageTitle.ts';
import { FormAlert } from '../forms/FormAlert.tsx';
import { EmailField } from '../forms/IdentifierField.tsx';
import { SingleFieldForm } from '../forms/SingleFieldForm.tsx';
import { translateServerText } from '../i18n/i18n.ts';
import { BackToLogin } from './AuthLinks.tsx';
import { AuthHeading } from './AuthHeading.tsx';
import { ResultHeading } from './ResultHeading.tsx';

/** /password/forgot: e-mails a reset link (the answer is the same for unknown addresses). */
export function ForgotPasswordScreen() {
  const { t } = useTranslation();
  const forgot = usePasswordForgot();
  const [sent, setSent] = useState<string | null>(null);
  usePageTitle(t('screens.forgotPassword.title'));

  const send = async (values: z.output<typeof passwordForgotPayloadSchema>) => {
    const answer = await forgot.mutateAsync(values);
    setSent(answer.message ?? t('forgot.sent'));
  };

  if (sent !== null) {
    return (
      <Stack gap="lg">
        <ResultHeading icon={<IconMailCheck size={28} stroke={1.6} />} color="green" title={t('forgot.sentTitle')} />
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
      <AuthHeading title={t('screens.forgotPassword.title')} description={t('screens.forgotPassword.description')} />
      <SingleFieldForm schema={passwordForgotPayloadSchema} name="email" as={EmailField} submitLabel={t('forgot.submit')} onSubmit={send} />
      <BackToLogin />
    </Stack>
  );
}
