import { IconPassword } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ComingSoonScreen } from './ComingSoonScreen.tsx';

/**
 * /password/otplogin: enter the one-time code (uniq_id from state or query).
 * Built by the next issue.
 */
export function OtpLoginScreen() {
  const { t } = useTranslation();
  return (
    <ComingSoonScreen
      title={t('screens.otpLogin.title')}
      description={t('screens.otpLogin.description')}
      icon={<IconPassword size={28} stroke={1.6} />}
    />
  );
}
