import { NativeSelect } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES } from '@berth/contracts';
import { chooseLanguage, currentLanguage, isLanguageCode } from '../i18n/i18n.ts';
import classes from './LanguageSelector.module.css';

/**
 * en / de / cs picker, each name in its own language. A native <select>: fully keyboard and
 * screen-reader friendly, the phone's own picker, and no popover code on the login page.
 */
export function LanguageSelector() {
  const { t } = useTranslation();

  return (
    <NativeSelect
      aria-label={t('language.label')}
      // Named so that a language picked on the prerendered login screen is the app's (prerender/handoff.ts).
      name="language"
      value={currentLanguage()}
      onChange={(event) => {
        const code = event.currentTarget.value;
        if (isLanguageCode(code)) chooseLanguage(code);
      }}
      size="xs"
      radius="md"
      leftSection={<IconLanguage size={16} aria-hidden />}
      classNames={{ input: classes.input }}
      data={LANGUAGES.map((code) => ({ value: code, label: t(`language.${code}`) }))}
    />
  );
}
