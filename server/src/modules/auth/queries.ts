import { sql } from 'kysely';
import { executePrepared, type Db } from '../../db/connection.ts';

type ThrottleHitQuery = { key: string; since: Date; limit: number };
type TakenHit = { id: number } | { oldest: Date };

const takenHit = (id: number | null | undefined, oldest: Date | string | null | undefined, now: Date): TakenHit =>
  id !== null && id !== undefined ? { id } : { oldest: new Date(oldest ?? now) };

/**
 * Counts one hit on `key` unless `limit` hits already stand since `since`, as one step: the
 * per-key advisory lock makes concurrent callers queue, so 30 simultaneous tries see 1, 2, … 30
 * and only the first `limit` get through (one call of the function of migration 0026). Answers
 * the new hit's id, or the oldest blocking hit.
 */
export const takeThrottleHit = async (db: Db, q: { key: string; now: Date; since: Date; limit: number }): Promise<TakenHit> => {
  const { rows } = await sql<{ hit_id: number | null; oldest: Date | string | null }>`
    select hit_id, oldest from public.take_throttle_hit(${q.key}, ${q.now}, ${q.since}, ${q.limit})`.execute(db);
  const row = rows[0];
  return takenHit(row?.hit_id, row?.oldest, q.now);
};

/** Two hits on two keys in one call (migration 0027): the first key is locked first. */
export const takeThrottleHitPair = async (
  db: Db,
  now: Date,
  first: ThrottleHitQuery,
  second: ThrottleHitQuery,
): Promise<[TakenHit, TakenHit]> => {
  type Row = { first_id: number | null; first_oldest: Date | string | null; second_id: number | null; second_oldest: Date | string | null };
  const { rows } = await executePrepared(
    db,
    'berth_throttle_pair',
    sql<Row>`select first_id, first_oldest, second_id, second_oldest from public.take_throttle_hit_pair(${now},
      ${first.key}, ${first.since}, ${first.limit}, ${second.key}, ${second.since}, ${second.limit})`.compile(db),
  );
  const row = rows[0];
  return [takenHit(row?.first_id, row?.first_oldest, now), takenHit(row?.second_id, row?.second_oldest, now)];
};

/** Takes hits back and clears keys, in one statement. */
export const deleteThrottleHitsOrKeys = (db: Db, ids: number[], keys: string[]) =>
  db
    .deleteFrom('throttle_hits')
    .where((eb) => eb.or([...(ids.length > 0 ? [eb('id', 'in', ids)] : []), ...(keys.length > 0 ? [eb('key', 'in', keys)] : [])]))
    .execute();

export const deleteThrottleHit = (db: Db, id: number) => db.deleteFrom('throttle_hits').where('id', '=', id).execute();

export const deleteThrottleKey = (db: Db, key: string) => db.deleteFrom('throttle_hits').where('key', '=', key).execute();

export const deleteThrottleHitsBefore = (db: Db, before: Date) => db.deleteFrom('throttle_hits').where('hit_at', '<', before).execute();
