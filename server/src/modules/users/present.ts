import type { User } from '@berth/contracts';
import { THUMBNAIL_SIZE } from '@berth/contracts';
import type { UserRow } from './queries.ts';

// Building a NumberFormat costs more than the rest of presenting a user: one per language.
const moneyFormats = new Map<string, Intl.NumberFormat>();
const formatMoney = (minor: number, language: string, currency: string): string => {
  const key = `${language}:${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, { style: 'currency', currency });
    moneyFormats.set(key, format);
  }
  return format.format(minor / 100);
};

/** The user as the web reads it (docs/product.md §3). */
/** `avatar`: whether the user uploaded a picture; unknown (left out) where the caller did not read it. */
export function presentUser(
  row: UserRow,
  credit: { balance: number; currency: string | null } = { balance: 0, currency: null },
  avatar?: boolean,
): User {
  const displayName = [row.given_name, row.sn].filter(Boolean).join(' ') || row.email;
  // The partner's commission is their credit balance (credit/ledger.ts), in minor units; `value` is major units.
  const commission = credit.balance;
  return {
    id: row.id,
    email: row.email,
    contact: { given_name: row.given_name, sn: row.sn, phone: row.phones, display_name: displayName },
    billing: {
      company: row.company,
      vat_id: row.vat_id,
      street: row.street,
      city: row.city,
      postal_code: row.postal_code,
      country: row.country,
    },
    image: {
      url: `/api/user/${row.id}/avatar?size=${THUMBNAIL_SIZE}&v=${new Date(row.updated_at).getTime()}`,
      ...(avatar === undefined ? {} : { custom: avatar }),
    },
    google2fa_enabled: row.google2fa_enabled,
    notifications_viewed: row.notifications_viewed,
    is_super_admin: row.role === 'super_admin',
    commission: { value: commission / 100, value_formatted: formatMoney(commission, row.language, credit.currency ?? 'EUR') },
    role: row.role,
    language: row.language,
    email_verified: row.email_verified_at !== null,
  };
}
