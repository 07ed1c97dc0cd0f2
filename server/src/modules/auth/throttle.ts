import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';

export interface ThrottleRule {
  limit: number;
  windowMs: number;
}

/**
 * Counts failures per key in a sliding window, in the database, so every app instance sees the
 * same count and a restart forgets nothing.
 */
export class FailureThrottle {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly rule: ThrottleRule;
  private readonly prefix: string;

  constructor(db: Db, clock: Clock, name: string, rule: ThrottleRule) {
    this.db = db;
    this.clock = clock;
    this.prefix = `${name}:`;
    this.rule = rule;
  }

  /** Seconds until the key may try again, or 0 when it may now. */
  async retryAfter(key: string): Promise<number> {
    const now = this.clock.now().getTime();
    const rows = await this.db
      .selectFrom('throttle_hits')
      .select('hit_at')
      .where('key', '=', this.prefix + key)
      .where('hit_at', '>', new Date(now - this.rule.windowMs))
      .orderBy('hit_at', 'desc')
      .limit(this.rule.limit)
      .execute();
    if (rows.length < this.rule.limit) return 0;
    const oldest = new Date(rows[rows.length - 1]?.hit_at ?? now).getTime();
    return Math.max(1, Math.ceil((oldest + this.rule.windowMs - now) / 1000));
  }

  async fail(key: string): Promise<void> {
    await this.db
      .insertInto('throttle_hits')
      .values({ key: this.prefix + key, hit_at: this.clock.now() })
      .execute();
  }

  async reset(key: string): Promise<void> {
    await this.db
      .deleteFrom('throttle_hits')
      .where('key', '=', this.prefix + key)
      .execute();
  }
}

/** Old hits are useless after the longest window; a periodic sweep keeps the table small. */
export async function sweepThrottleHits(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('throttle_hits').where('hit_at', '<', before).execute();
}
