import { IconLifebuoy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ComingSoonScreen } from './ComingSoonScreen.tsx';

/**
 * /login2fa/recovery: log in with a recovery code, then go to /account/2fa.
 * Built by the next issue.
 */
export function RecoveryCodeScreen() {
  const { t } = useTranslation();
  return (
    <ComingSoonScreen
      title={t('screens.recovery.title')}
      description={t('screens.recovery.description')}
      icon={<IconLifebuoy size={28} stroke={1.6} />}
    />
  );
}
