import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import { deleteThrottleHit, deleteThrottleHitsBefore, deleteThrottleKey, takeThrottleHit } from './queries.ts';

/** A throttle's rule: its name keys its rows, so two throttles with different names never share a count. */
export interface ThrottleRule {
  name: string;
  limit: number;
  windowMs: number;
}

export const MINUTE = 60 * 1000;
export const HOUR = 60 * MINUTE;

/** One counted try: `wait` > 0 means it was refused (nothing counted) and says for how many seconds. */
export interface Attempt {
  wait: number;
  /** Takes the try back: for throttles that count only failures, once the check has passed. */
  succeeded(): Promise<void>;
}

const REFUSED_NOTHING_TO_TAKE_BACK = async () => undefined;

/**
 * At most `limit` tries per key in a sliding window, counted in the database so every instance
 * sees the same count. A try is counted BEFORE it is checked (`attempt`), atomically, so a burst
 * of simultaneous guesses cannot all be checked before the first failure is written; a try that
 * passes its check may then be taken back (`succeeded`) or the key cleared (`reset`).
 */
export class FailureThrottle {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly rule: ThrottleRule;
  private readonly prefix: string;

  constructor(db: Db, clock: Clock, rule: ThrottleRule) {
    this.db = db;
    this.clock = clock;
    this.prefix = `${rule.name}:`;
    this.rule = rule;
  }

  async attempt(key: string): Promise<Attempt> {
    const now = this.clock.now();
    const taken = await takeThrottleHit(this.db, {
      key: this.prefix + key,
      now,
      since: new Date(now.getTime() - this.rule.windowMs),
      limit: this.rule.limit,
    });
    if ('oldest' in taken) {
      const wait = Math.max(1, Math.ceil((taken.oldest.getTime() + this.rule.windowMs - now.getTime()) / 1000));
      return { wait, succeeded: REFUSED_NOTHING_TO_TAKE_BACK };
    }
    return { wait: 0, succeeded: async () => void (await deleteThrottleHit(this.db, taken.id)) };
  }

  async reset(key: string): Promise<void> {
    await deleteThrottleKey(this.db, this.prefix + key);
  }
}

/** Old hits are useless after the longest window; a periodic sweep keeps the table small. */
export async function sweepThrottleHits(db: Db, before: Date): Promise<void> {
  await deleteThrottleHitsBefore(db, before);
}
