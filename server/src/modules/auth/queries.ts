import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';

/**
 * Counts one hit on `key` unless `limit` hits already stand since `since`, as one step: the
 * per-key advisory lock makes concurrent callers queue, so 30 simultaneous tries see 1, 2, … 30
 * and only the first `limit` get through (one call of the function of migration 0026). Answers
 * the new hit's id, or the oldest blocking hit.
 */
export const takeThrottleHit = async (
  db: Db,
  q: { key: string; now: Date; since: Date; limit: number },
): Promise<{ id: number } | { oldest: Date }> => {
  const { rows } = await sql<{ hit_id: number | null; oldest: Date | string | null }>`
    select hit_id, oldest from public.take_throttle_hit(${q.key}, ${q.now}, ${q.since}, ${q.limit})`.execute(db);
  const row = rows[0];
  if (row?.hit_id !== null && row?.hit_id !== undefined) return { id: row.hit_id };
  return { oldest: new Date(row?.oldest ?? q.now) };
};

export const deleteThrottleHit = (db: Db, id: number) => db.deleteFrom('throttle_hits').where('id', '=', id).execute();

export const deleteThrottleKey = (db: Db, key: string) => db.deleteFrom('throttle_hits').where('key', '=', key).execute();

export const deleteThrottleHitsBefore = (db: Db, before: Date) => db.deleteFrom('throttle_hits').where('hit_at', '<', before).execute();
