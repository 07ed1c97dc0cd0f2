import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  deleteThrottleHit,
  deleteThrottleHitsBefore,
  deleteThrottleHitsOrKeys,
  deleteThrottleKey,
  takeThrottleHit,
  takeThrottleHitPair,
  type TakenHit,
  type ThrottleHitQuery,
} from './queries.ts';

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

/** Tries on two throttles counted together (FailureThrottle.attemptPair). */
export interface PairedAttempt {
  /** > 0: either throttle refused, for this many seconds. */
  wait: number;
  /** Both tries taken back (after a refusal, nothing counts). */
  takeBack(): Promise<void>;
  /** The check passed: the first key's failures are cleared, the second's try taken back. */
  passed(): Promise<void>;
  /**
   * What `passed` deletes, for a caller that deletes it in a statement of its own (the sign-in): the
   * second throttle's try, when one was taken, and every try on the first key.
   */
  onPass: { id: number | null; key: string };
}

/** The two tries of a pair, for a statement that takes them beside work of its own. */
export interface PairQueries {
  now: Date;
  /** The first throttle's: its key is the caller's to finish (`prefix` + key). */
  mine: { prefix: string; since: Date; limit: number };
  theirs: ThrottleHitQuery;
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
    const taken = await takeThrottleHit(this.db, { ...this.query(key, now), now });
    if ('oldest' in taken) return { wait: this.waitFor(taken.oldest, now), succeeded: REFUSED_NOTHING_TO_TAKE_BACK };
    return { wait: 0, succeeded: async () => void (await deleteThrottleHit(this.db, taken.id)) };
  }

  /**
   * A try on this throttle (an account's) and one on `other` (an address's) counted in one round
   * trip, for the sign-in paths: every round trip wakes a database backend that competes with
   * argon2 for the CPU (bench: logins against raw verifies).
   */
  async attemptPair(key: string, other: FailureThrottle, otherKey: string): Promise<PairedAttempt> {
    const { tries } = await this.attemptPairWith(other, otherKey, async (q) => ({
      result: undefined,
      key,
      hits: await takeThrottleHitPair(this.db, q.now, { ...q.mine, key: q.mine.prefix + key }, q.theirs),
    }));
    return tries;
  }

  /**
   * `attemptPair` where this throttle's key is only known inside the statement that takes the
   * tries (the sign-in finds the account and takes its tries in one round trip): `take` runs that
   * statement and answers what it found, the key it used (without the prefix) and the two hits.
   */
  async attemptPairWith<R>(
    other: FailureThrottle,
    otherKey: string,
    take: (q: PairQueries) => Promise<{ result: R; key: string; hits: [TakenHit, TakenHit] }>,
  ): Promise<{ result: R; tries: PairedAttempt }> {
    const now = this.clock.now();
    const { since, limit } = this.query('', now);
    const { result, key, hits } = await take({ now, mine: { prefix: this.prefix, since, limit }, theirs: other.query(otherKey, now) });
    const [mine, theirs] = hits;
    const wait = Math.max(
      'oldest' in mine ? this.waitFor(mine.oldest, now) : 0,
      'oldest' in theirs ? other.waitFor(theirs.oldest, now) : 0,
    );
    const ids = [mine, theirs].flatMap((hit) => ('id' in hit ? [hit.id] : []));
    const onPass = { id: 'id' in theirs ? theirs.id : null, key: this.prefix + key };
    return {
      result,
      tries: {
        wait,
        onPass,
        takeBack: async () => void (ids.length > 0 && (await deleteThrottleHitsOrKeys(this.db, ids, []))),
        passed: async () => void (await deleteThrottleHitsOrKeys(this.db, onPass.id === null ? [] : [onPass.id], [onPass.key])),
      },
    };
  }

  private query(key: string, now: Date) {
    return { key: this.prefix + key, since: new Date(now.getTime() - this.rule.windowMs), limit: this.rule.limit };
  }

  private waitFor(oldest: Date, now: Date): number {
    return Math.max(1, Math.ceil((oldest.getTime() + this.rule.windowMs - now.getTime()) / 1000));
  }

  async reset(key: string): Promise<void> {
    await deleteThrottleKey(this.db, this.prefix + key);
  }
}

/** Old hits are useless after the longest window; a periodic sweep keeps the table small. */
export async function sweepThrottleHits(db: Db, before: Date): Promise<void> {
  await deleteThrottleHitsBefore(db, before);
}
