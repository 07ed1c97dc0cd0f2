import { IconMailCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ComingSoonScreen } from './ComingSoonScreen.tsx';

/** /register/verify/:code: verifies on load with a spinner. Built by the next issue. */
export function RegisterVerifyScreen() {
  const { t } = useTranslation();
  return (
    <ComingSoonScreen
      title={t('screens.registerVerify.title')}
      description={t('screens.registerVerify.description')}
      icon={<IconMailCheck size={28} stroke={1.6} />}
    />
  );
}
