import type { LanguageCode } from '@berth/contracts';
import type { Mailer } from '../mail/mailer.ts';
import { isLanguage } from '../../i18n/messages.ts';
import type { UserRow } from '../users/queries.ts';

/** What the auth flows need of the mail module. */
export type MailSender = Pick<Mailer, 'send'>;

export const displayName = (user: UserRow): string => [user.given_name, user.sn].filter(Boolean).join(' ') || user.email;
export const userLanguage = (user: UserRow): LanguageCode => (isLanguage(user.language) ? user.language : 'en');
