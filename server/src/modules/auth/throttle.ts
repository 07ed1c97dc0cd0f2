import type { Clock } from '../../lib/clock.ts';

export interface ThrottleRule {
  limit: number;
  windowMs: number;
}

/**
 * Counts failures per key in a sliding window. In-process for the embedded mode; several
 * instances share one through Redis (the auth-hardening issue plugs that store in here).
 */
export class FailureThrottle {
  private readonly hits = new Map<string, number[]>();
  private readonly clock: Clock;
  private readonly rule: ThrottleRule;

  constructor(clock: Clock, rule: ThrottleRule) {
    this.clock = clock;
    this.rule = rule;
  }

  private recent(key: string): number[] {
    const since = this.clock.now().getTime() - this.rule.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (list.length) this.hits.set(key, list);
    else this.hits.delete(key);
    return list;
  }

  /** Seconds until the key may try again, or 0 when it may now. */
  retryAfter(key: string): number {
    const list = this.recent(key);
    if (list.length < this.rule.limit) return 0;
    const oldest = list[list.length - this.rule.limit] ?? 0;
    return Math.max(1, Math.ceil((oldest + this.rule.windowMs - this.clock.now().getTime()) / 1000));
  }

  fail(key: string): void {
    const list = this.recent(key);
    list.push(this.clock.now().getTime());
    this.hits.set(key, list);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }
}
