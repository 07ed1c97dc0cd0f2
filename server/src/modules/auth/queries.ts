import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';

/**
 * Counts one hit on `key` unless `limit` hits already stand since `since`, as one step: the
 * per-key advisory lock makes concurrent callers queue, so 30 simultaneous tries see 1, 2, … 30
 * and only the first `limit` get through. Answers the new hit's id, or the oldest blocking hit.
 */
export const takeThrottleHit = (db: Db, q: { key: string; now: Date; since: Date; limit: number }) =>
  db.transaction().execute(async (trx): Promise<{ id: number } | { oldest: Date }> => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${q.key}, 0))`.execute(trx);
    const hits = await trx
      .selectFrom('throttle_hits')
      .select('hit_at')
      .where('key', '=', q.key)
      .where('hit_at', '>', q.since)
      .orderBy('hit_at', 'desc')
      .limit(q.limit)
      .execute();
    if (hits.length >= q.limit) return { oldest: new Date(hits[hits.length - 1]!.hit_at) };
    const row = await trx.insertInto('throttle_hits').values({ key: q.key, hit_at: q.now }).returning('id').executeTakeFirstOrThrow();
    return { id: row.id };
  });

export const deleteThrottleHit = (db: Db, id: number) => db.deleteFrom('throttle_hits').where('id', '=', id).execute();

export const deleteThrottleKey = (db: Db, key: string) => db.deleteFrom('throttle_hits').where('key', '=', key).execute();

export const deleteThrottleHitsBefore = (db: Db, before: Date) => db.deleteFrom('throttle_hits').where('hit_at', '<', before).execute();
