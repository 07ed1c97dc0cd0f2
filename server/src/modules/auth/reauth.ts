import { fieldError, tooManyRequests } from '../../http/errors.ts';
import type { PasswordHasher } from '../../lib/password.ts';
import type { UserRow } from '../users/queries.ts';
import { type FailureThrottle, MINUTE, type ThrottleRule } from './throttle.ts';

/** Wrong current passwords per account before re-authentication waits. */
export const REAUTH_THROTTLE: ThrottleRule = { name: 'reauth', limit: 5, windowMs: 15 * MINUTE };

/** Re-authentication before a credential change: the current password, throttled per user. */
export class Reauthenticator {
  private readonly hasher: PasswordHasher;
  private readonly throttle: FailureThrottle;

  constructor(hasher: PasswordHasher, throttle: FailureThrottle) {
    this.hasher = hasher;
    this.throttle = throttle;
  }

  async confirm(user: UserRow, password: string, field = 'password'): Promise<void> {
    const key = String(user.id);
    // Counted before the check: simultaneous guesses get no more checks than the limit.
    const { wait } = await this.throttle.attempt(key);
    if (wait > 0) throw tooManyRequests('auth.throttled', wait);
    if (!(await this.hasher.verify(user.password_hash, password))) throw fieldError(field, 'password.current_wrong');
    await this.throttle.reset(key);
  }
}
