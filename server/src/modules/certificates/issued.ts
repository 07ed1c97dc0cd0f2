import type { SecretBox } from '../../lib/secret-box.ts';
import type { IssuedCertificate } from './acme.ts';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const WEEK = 7 * 24 * HOUR;

/** After the `attempts`-th failed order in a row, when to try again: that step of the backoff (its last from then on). */
export function retryAfterFailure(now: Date, attempts: number, stepsMinutes: readonly number[]): Date {
  return new Date(now.getTime() + stepsMinutes[Math.min(attempts, stepsMinutes.length) - 1]! * MINUTE);
}

export const weekBefore = (now: Date): Date => new Date(now.getTime() - WEEK);

/**
 * The CA allows the same names only so often a week: null while the week's orders (oldest first)
 * leave room, else when the oldest of them is a week old.
 */
export function duplicatesFullUntil(week: readonly { started_at: Date | string }[], limit: number): Date | null {
  const oldest = week[0];
  return week.length >= limit && oldest ? new Date(new Date(oldest.started_at).getTime() + WEEK) : null;
}

/**
 * When a certificate is renewed: at two thirds of its lifetime. Should that be past already by this
 * platform's clock (a CA's clock ahead of it), at two thirds of what is left, so that a new
 * certificate is never due at once — no order loop; one already ended by this clock waits an hour.
 */
export function renewalTime(notBefore: Date, notAfter: Date, now: Date): Date {
  const ideal = notBefore.getTime() + Math.round(((notAfter.getTime() - notBefore.getTime()) * 2) / 3);
  if (ideal > now.getTime()) return new Date(ideal);
  const left = notAfter.getTime() - now.getTime();
  return new Date(now.getTime() + (left > 0 ? Math.round((left * 2) / 3) : HOUR));
}

/** What a certificate just issued stores: valid, its key sealed, no problem, renewed at two thirds of its lifetime. */
export function issuedColumns(issued: IssuedCertificate, names: string[], method: 'dns-01' | 'http-01', keys: SecretBox, now: Date) {
  return {
    names,
    method,
    state: 'valid' as const,
    issuer: issued.issuer,
    serial: issued.serial,
    not_before: issued.notBefore,
    not_after: issued.notAfter,
    cert_pem: issued.certPem,
    key_sealed: keys.seal(issued.keyPem),
    problem: null,
    attempts: 0,
    next_try_at: null,
    renew_at: renewalTime(issued.notBefore, issued.notAfter, now),
    updated_at: now,
  };
}
