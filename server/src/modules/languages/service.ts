import type { Language, LanguageCode } from '@berth/contracts';

/** The panel's languages, each titled in its own language (as a language picker shows them). */
export const PANEL_LANGUAGES: readonly Language[] = [
  { id: 1, code: 'en', title: 'English' },
  { id: 2, code: 'de', title: 'Deutsch' },
  { id: 3, code: 'cs', title: 'Čeština' },
];

export const languageTitle = (code: LanguageCode): string => PANEL_LANGUAGES.find((l) => l.code === code)?.title ?? code;
