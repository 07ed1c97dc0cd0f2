import { IconUserPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ComingSoonScreen } from './ComingSoonScreen.tsx';

/** /register: registration with captcha and two agreements. Built by the next issue. */
export function RegisterScreen() {
  const { t } = useTranslation();
  return (
    <ComingSoonScreen
      title={t('screens.register.title')}
      description={t('screens.register.description')}
      icon={<IconUserPlus size={28} stroke={1.6} />}
    />
  );
}
