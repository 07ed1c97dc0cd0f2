import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@berth/contracts';
import type { MessageKey } from '../i18n/messages.ts';

/** ~49,000 of the most common passwords from public breach corpora (zxcvbn-ts). */
const COMMON = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));

/**
 * Passphrases made famous by being examples (comics, typing drills, films): long and made of
 * words, so the guess estimate scores them high, yet they are among the first an attacker tries.
 * Compared by their letters and digits only ("Correct-Horse battery staple!" is the same).
 */
const WELL_KNOWN_PASSPHRASES = new Set([
  'correcthorsebatterystaple',
  'thequickbrownfoxjumpsoverthelazydog',
  'thequickbrownfoxjumpedoverthelazydog',
  'loremipsumdolorsitamet',
  'maytheforcebewithyou',
  'tobeornottobethatisthequestion',
  'iwanttobelieve',
  'opensesame',
  'letmeinletmein',
  'ilovemycatsomuch',
  'trustnoonetrustno1',
  'allworkandnoplaymakesjackadullboy',
  'hellofromtheotherside',
  'itsasecrettoeverybody',
  'passwordpasswordpassword',
  'thisismypassword',
  'thisisapassword',
  'mypasswordismypassword',
  'iamthewalrus',
  'winteriscoming',
  'neverskipaday',
  'iloveyouiloveyou',
  'changemechangeme',
  'letsgobrandon',
  'onetwothreefourfive',
  'abcdefghijklmnopqrstuvwxyz',
]);
const lettersAndDigits = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * Whether the password is nothing but the context's words, in any order and repeated, with digits
 * and separators between them: `harborlocalhost2026`, `Harbor.Localhost!!`, `2026-hana-harbor`.
 */
function madeOfContext(password: string, words: readonly string[]): boolean {
  const letters = password.toLowerCase().replace(/[^\p{L}]+/gu, '');
  const usable = [...new Set(words.map((word) => word.replace(/[^\p{L}]+/gu, '')).filter((word) => word.length >= 3))];
  if (!letters || usable.length === 0) return false;
  // reachable[i]: the first i letters split into context words.
  const reachable = new Array<boolean>(letters.length + 1).fill(false);
  reachable[0] = true;
  for (let i = 0; i < letters.length; i++) {
    if (!reachable[i]) continue;
    for (const word of usable) if (letters.startsWith(word, i)) reachable[i + word.length] = true;
  }
  return reachable[letters.length] === true;
}

/** An address at one of the context's host names (the tenant's, the user's domain). */
const addressAtContextHost = (password: string, words: readonly string[]): boolean => {
  const at = /^[^\s@]+@([^\s@]+)$/.exec(password.trim().toLowerCase());
  return at !== null && words.some((word) => word.includes('.') && (at[1] === word || at[1]?.endsWith(`.${word}`)));
};

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
    if (!folded) return [];
    const domain = folded.includes('@') ? [folded.slice(folded.lastIndexOf('@') + 1)] : [];
    return [folded, ...domain, ...folded.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 3)];
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
  const compact = lettersAndDigits(password);
  if (COMMON.has(folded) || COMMON.has(compact) || WELL_KNOWN_PASSPHRASES.has(compact)) return { key: 'password.common' };
  for (const identifier of identifiers) {
    const id = identifier.toLowerCase();
    const local = id.split('@')[0] ?? id;
    if (folded === id || (local.length >= 4 && folded === local)) return { key: 'password.same_as_login' };
  }
  const words = contextWords(identifiers);
  if (madeOfContext(password, words) || addressAtContextHost(password, words)) return { key: 'password.context' };
  const estimate = estimator.check(password, words);
  if (estimate.score < MIN_SCORE) return { key: reasonOf(estimate.sequence, password.length) };
  return undefined;
}

/**
 * What a password must not be built on, beyond the person's own identifiers: the site they sign in
 * to, by its title and every host name (`harbor.localhost`, `Harbor Hosting`).
 */
/** A person's own identifiers: e-mail and names. */
export const personalContext = (user: { email: string; given_name?: string | null; sn?: string | null }): string[] =>
  [user.email, user.given_name ?? '', user.sn ?? ''].filter(Boolean);

export const siteContext = (tenant: { title: string; hosts: readonly string[] }): string[] => [tenant.title, ...tenant.hosts];

export const COMMON_PASSWORD_COUNT = COMMON.size;
