import type { LanguageCode } from '@berth/contracts';
import { isLanguage } from '../../i18n/messages.ts';

/** The language a user reads stored texts in (ledger descriptions, invoice lines). */
export const languageOf = (user: { language: string } | undefined): LanguageCode =>
  user && isLanguage(user.language) ? user.language : 'en';
