import { IconLockCog } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ComingSoonScreen } from './ComingSoonScreen.tsx';

/** /change-password: a domain user changes their password. Built by the next issue. */
export function ChangePasswordScreen() {
  const { t } = useTranslation();
  return (
    <ComingSoonScreen
      title={t('screens.changePassword.title')}
      description={t('screens.changePassword.description')}
      icon={<IconLockCog size={28} stroke={1.6} />}
    />
  );
}
