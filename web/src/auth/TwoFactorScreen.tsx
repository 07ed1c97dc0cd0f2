import { IconShieldLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ComingSoonScreen } from './ComingSoonScreen.tsx';

/** /login2fa: enter the two-factor code; links to recovery. Built by the next issue. */
export function TwoFactorScreen() {
  const { t } = useTranslation();
  return (
    <ComingSoonScreen
      title={t('screens.twoFactor.title')}
      description={t('screens.twoFactor.description')}
      icon={<IconShieldLock size={28} stroke={1.6} />}
    />
  );
}
