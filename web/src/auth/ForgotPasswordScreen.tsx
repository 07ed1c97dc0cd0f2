import { IconMailForward } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ComingSoonScreen } from './ComingSoonScreen.tsx';

/** /password/forgot: request a password reset e-mail. Built by the next issue. */
export function ForgotPasswordScreen() {
  const { t } = useTranslation();
  return (
    <ComingSoonScreen
      title={t('screens.forgotPassword.title')}
      description={t('screens.forgotPassword.description')}
      icon={<IconMailForward size={28} stroke={1.6} />}
    />
  );
}
