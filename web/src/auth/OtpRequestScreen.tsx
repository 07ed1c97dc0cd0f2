import { useNavigate } from 'react-router';
import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { otpRequestPayloadSchema } from '@berth/contracts';
import { useOtpRequest } from '../api/authFlows.ts';
import { usePageTitle } from '../components/usePageTitle.ts';
import { EmailField } from '../forms/IdentifierField.tsx';
import { SingleFieldForm } from '../forms/SingleFieldForm.tsx';
import { BackToLogin } from './AuthLinks.tsx';
import { AuthHeading } from './AuthHeading.tsx';
import type { OtpLoginState } from './OtpLoginScreen.tsx';
import { OtpOffered } from './OtpOffered.tsx';

/** /password/otp: e-mails a one-time login code, then on to /password/otplogin. */
export function OtpRequestScreen() {
  return (
    <OtpOffered>
      <OtpRequestForm />
    </OtpOffered>
  );
}

function OtpRequestForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const request = useOtpRequest();
  usePageTitle(t('screens.otpRequest.title'));

  const send = async (values: z.output<typeof otpRequestPayloadSchema>) => {
    const answer = await request.mutateAsync(values);
    const state: OtpLoginState = { notice: answer.notice, uniq_id: answer.data.uniq_id };
    await navigate('/password/otplogin', { state });
  };

  return (
    <Stack gap="lg">
      <AuthHeading title={t('screens.otpRequest.title')} description={t('screens.otpRequest.description')} />
      <SingleFieldForm schema={otpRequestPayloadSchema} name="email" as={EmailField} submitLabel={t('otp.send')} onSubmit={send} />
      <BackToLogin />
    </Stack>
  );
}
