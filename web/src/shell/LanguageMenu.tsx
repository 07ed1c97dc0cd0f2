import { Menu, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconChevronDown, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { LanguageCode, User } from '@berth/contracts';
import { useLanguageChange, useLanguages } from '../api/shell.ts';
import { clearMessages, NOTICE_TIMEOUT_MS, pushMessage } from '../components/messageStore.ts';
import { describeError } from '../forms/validation.ts';
import { chooseLanguage, currentLanguage } from '../i18n/i18n.ts';
import classes from './Header.module.css';

interface LanguageMenuProps {
  user: User;
}

/**
 * The header's language picker: saves the choice on the account (PATCH /api/user/language)
 * and switches every string at once, without a reload (i18next.changeLanguage).
 */
export function LanguageMenu({ user }: LanguageMenuProps) {
  const { t } = useTranslation();
  const languages = useLanguages();
  const change = useLanguageChange();
  const current = currentLanguage();
  const currentTitle = languages.data?.find((language) => language.code === current)?.title ?? t(`language.${current}`);

  const pick = (code: LanguageCode) => {
    if (code === user.language && code === current) return;
    change.mutate(code, {
      onSuccess: (answer) => {
        // The device remembers it too, so the login screen speaks it after logging out.
        chooseLanguage(code);
        // Messages already shown were written in the old language: they go, the notice stays.
        clearMessages();
        pushMessage({
          type: 'notice',
          data: answer.message ?? 'language.changed',
          timeout: NOTICE_TIMEOUT_MS,
        });
      },
      onError: (error) => {
        pushMessage({ type: 'error', data: `${t('language.changeFailed')} ${describeError(error, t)}` });
      },
    });
  };

  return (
    <Menu position="bottom-end" width={200} shadow="md" radius="md" offset={8} withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UnstyledButton className={classes.headerButton} data-testid="language-menu" disabled={change.isPending}>
          <IconLanguage size={19} stroke={1.7} aria-hidden />
          {/* Named "Language: EN (English)": the visible code is part of the name (WCAG 2.5.3). */}
          <VisuallyHidden>{t('language.label')}: </VisuallyHidden>
          <span className={classes.languageCode}>{current.toUpperCase()}</span>
          <VisuallyHidden> ({currentTitle})</VisuallyHidden>
          <IconChevronDown size={14} aria-hidden className={classes.chevron} />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('language.label')}</Menu.Label>
        {(languages.data ?? []).map((language) => (
          <Menu.Item
            key={language.id}
            lang={language.code}
            onClick={() => {
              pick(language.code);
            }}
            rightSection={language.code === current ? <IconCheck size={16} aria-label={t('language.selected')} /> : null}
            data-testid={`language-${language.code}`}
          >
            {language.title}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
