import { sql } from 'kysely';
import type { Db } from './connection.ts';

/** PostgreSQL's disk_full, PGlite's (and the filesystem's) ENOSPC: the write can succeed later, once there is room. */
export function isStorageFull(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (code === '53100' || code === 'ENOSPC') return true;
    if (typeof message === 'string' && /No space left on device|could not extend file/i.test(message)) return true;
    current = cause;
  }
  return false;
}

/**
 * Whether this instance's writes find room on the database's storage: a write that failed for want
 * of space marks it full (answers are 503 with Retry-After, `/api/health` says `storage: error`);
 * the next write that succeeds, or a probe of the health check, marks it fine again.
 */
export class StorageWatch {
  private full = false;
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  noteFull(): void {
    this.full = true;
  }

  noteWritten(): void {
    this.full = false;
  }

  /** While marked full, one small write (migration 0024's probe row) tells whether there is room again. */
  async status(): Promise<'ok' | 'error'> {
    if (!this.full) return 'ok';
    try {
      await sql`insert into public.storage_probe (id, at) values (1, now()) on conflict (id) do update set at = excluded.at`.execute(
        this.db,
      );
      this.full = false;
      return 'ok';
    } catch {
      return 'error';
    }
  }
}
