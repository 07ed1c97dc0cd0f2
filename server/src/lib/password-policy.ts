import { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@berth/contracts';
import type { MessageKey } from '../i18n/messages.ts';

/** ~49,000 of the most common passwords from public breach corpora (zxcvbn-ts). */
const COMMON = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));

export interface PolicyViolation {
  key: MessageKey;
  params?: Record<string, number>;
}

/**
 * NIST SP 800-63B-4: length is what counts (15+, 64+ accepted, nothing truncated), no composition
 * rules, and a blocklist of common passwords and of the account's own identifier.
 */
export function checkPasswordPolicy(password: string, identifiers: readonly string[]): PolicyViolation | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return { key: 'password.too_short', params: { min: PASSWORD_MIN_LENGTH } };
  if (length > PASSWORD_MAX_LENGTH) return { key: 'validation.too_long', params: { max: PASSWORD_MAX_LENGTH } };
  const folded = password.toLowerCase();
  if (COMMON.has(folded)) return { key: 'password.common' };
  for (const identifier of identifiers) {
    const id = identifier.toLowerCase();
    const local = id.split('@')[0] ?? id;
    if (folded === id || (local.length >= 4 && folded === local)) return { key: 'password.same_as_login' };
  }
  return undefined;
}

export const COMMON_PASSWORD_COUNT = COMMON.size;
