import { IconMail } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ComingSoonScreen } from './ComingSoonScreen.tsx';

/** /password/otp: request a one-time login code. Built by the next issue. */
export function OtpRequestScreen() {
  const { t } = useTranslation();
  return (
    <ComingSoonScreen
      title={t('screens.otpRequest.title')}
      description={t('screens.otpRequest.description')}
      icon={<IconMail size={28} stroke={1.6} />}
    />
  );
}
