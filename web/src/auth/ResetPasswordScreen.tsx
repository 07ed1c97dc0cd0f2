import { IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ComingSoonScreen } from './ComingSoonScreen.tsx';

/** /password/reset/:uniq_id/:token: set a new password. Built by the next issue. */
export function ResetPasswordScreen() {
  const { t } = useTranslation();
  return (
    <ComingSoonScreen
      title={t('screens.resetPassword.title')}
      description={t('screens.resetPassword.description')}
      icon={<IconKey size={28} stroke={1.6} />}
    />
  );
}
