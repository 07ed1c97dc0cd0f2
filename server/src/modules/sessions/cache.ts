import type { Clock } from '../../lib/clock.ts';
import { ChannelListener } from '../../db/listener.ts';

/** The channel the database announces changes to cached sessions on (db/migrations/0021_session_cache.ts). */
export const SESSION_CACHE_CHANNEL = 'berth_session_cache';

/** A missed announcement (a bug, a network that lost it silently) lives at most this long. */
export const SESSION_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

interface Entry<Row> {
  row: Row;
  userId: number;
  impersonatorId: number | null;
  until: number;
}

/**
 * Sessions as read from the database, by the hash of their id, on PostgreSQL: an authenticated
 * request then runs no query. An entry goes when the database announces a change to what it holds
 * (every write path, every instance: the triggers of 0021), when this instance answers any request
 * that may have written (`clear`, so a change is visible to its own next request at once), and after
 * SESSION_CACHE_TTL_MS in any case. While the listener is down nothing is cached, since an
 * announcement could be missed; when it is back, the cache starts empty.
 *
 * A read that was under way while an announcement arrived is not kept (`begin`/`keep`): it may
 * hold what the announcement invalidated.
 */
export class SessionCache<Row> {
  private readonly entries = new Map<string, Entry<Row>>();
  /** Moves on every announcement and clear: a read begun before it is not kept. */
  private generation = 0;
  private readonly listener: ChannelListener;
  private readonly clock: Clock;

  constructor(options: { databaseUrl: string; clock: Clock; onError?: (error: Error) => void; retryDelaysMs?: readonly number[] }) {
    this.clock = options.clock;
    this.listener = new ChannelListener({
      databaseUrl: options.databaseUrl,
      channel: SESSION_CACHE_CHANNEL,
      onNotification: (payload) => this.announced(payload),
      onStateChange: () => this.clear(),
      ...(options.onError ? { onError: options.onError } : {}),
      ...(options.retryDelaysMs ? { retryDelaysMs: options.retryDelaysMs } : {}),
    });
  }

  start(): Promise<void> {
    return this.listener.start();
  }

  close(): Promise<void> {
    return this.listener.close();
  }

  /** Whether answers can come from memory now (the listener is connected and listening). */
  get active(): boolean {
    return this.listener.isListening;
  }

  get size(): number {
    return this.entries.size;
  }

  get(idHash: string): Row | undefined {
    if (!this.listener.isListening) return undefined;
    const entry = this.entries.get(idHash);
    if (!entry) return undefined;
    if (entry.until <= this.clock.now().getTime()) {
      this.entries.delete(idHash);
      return undefined;
    }
    return entry.row;
  }

  /** Call before reading a session from the database; pass the result to `keep`. */
  begin(): number {
    return this.generation;
  }

  keep(idHash: string, row: Row, ids: { userId: number; impersonatorId: number | null }, begun: number): void {
    if (begun !== this.generation || !this.listener.isListening) return;
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(idHash, { row, ...ids, until: this.clock.now().getTime() + SESSION_CACHE_TTL_MS });
  }

  drop(idHash: string): void {
    this.generation += 1;
    this.entries.delete(idHash);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  private announced(payload: string): void {
    this.generation += 1;
    if (payload.startsWith('s:')) {
      this.entries.delete(payload.slice(2));
      return;
    }
    const userId = payload.startsWith('u:') ? Number(payload.slice(2)) : Number.NaN;
    if (!Number.isInteger(userId)) {
      this.entries.clear();
      return;
    }
    for (const [idHash, entry] of this.entries) {
      if (entry.userId === userId || entry.impersonatorId === userId) this.entries.delete(idHash);
    }
  }
}
