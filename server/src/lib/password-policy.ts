import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@berth/contracts';
import type { MessageKey } from '../i18n/messages.ts';

/** ~49,000 of the most common passwords from public breach corpora (zxcvbn-ts). */
const COMMON = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));

/**
 * zxcvbn estimates how many guesses a password takes from what attackers try first: breached
 * passwords and common words (also l33t and reversed), repeats, sequences, keyboard walks, dates,
 * and the account's own words. Below 10^8 guesses (its score 3) a password falls to an offline
 * attack on a leaked hash within days, however long it is.
 */
const estimator = new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
const MIN_SCORE = 3;

/** Which weakness made the estimate low, as the reason shown under the field. */
function reasonOf(sequence: { pattern: string; dictionaryName?: string; token: string }[], length: number): MessageKey {
  const main = [...sequence].sort((a, b) => b.token.length - a.token.length);
  if (main.some((match) => match.dictionaryName === 'userInputs')) return 'password.context';
  const top = main[0];
  if (top && top.token.length * 2 >= length) {
    if (top.pattern === 'repeat') return 'password.repeated';
    if (top.pattern === 'sequence') return 'password.sequence';
    if (top.pattern === 'spatial') return 'password.keyboard';
    if (top.pattern === 'date') return 'password.date';
  }
  if (main.some((match) => match.pattern === 'dictionary')) return 'password.common';
  return 'password.weak';
}

/** The words of an identifier an attacker would try in the password: `ana.novak@harbor.test` → ana, novak, harbor, test… */
const contextWords = (identifiers: readonly string[]): string[] =>
  identifiers.flatMap((identifier) => {
    const folded = identifier.toLowerCase().trim();
    return folded ? [folded, ...folded.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 3)] : [];
  });

export interface PolicyViolation {
  key: MessageKey;
  params?: Record<string, number>;
}

/**
 * NIST SP 800-63B-4: length is what counts (15+, 64+ accepted, nothing truncated), no composition
 * rules; a blocklist of breached passwords and of the account's own identifier, and a guess
 * estimate that refuses repeats, sequences, keyboard walks and the account's own words.
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
  const estimate = estimator.check(password, contextWords(identifiers));
  if (estimate.score < MIN_SCORE) return { key: reasonOf(estimate.sequence, password.length) };
  return undefined;
}

export const COMMON_PASSWORD_COUNT = COMMON.size;
