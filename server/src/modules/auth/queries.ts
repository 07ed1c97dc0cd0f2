import { sql } from 'kysely';
import { preparedStatement, type Db } from '../../db/connection.ts';
import { auditEntryInsert, type AuditRowValues } from '../audit/queries.ts';
import { sessionInsert, type NewSessionRow } from '../sessions/queries.ts';
import { loginCandidateQuery, type UserRow } from '../users/queries.ts';
import type { PairQueries } from './throttle.ts';

export type ThrottleHitQuery = { key: string; since: Date; limit: number };
export type TakenHit = { id: number } | { oldest: Date };

export const takenHit = (id: number | null | undefined, oldest: Date | string | null | undefined, now: Date): TakenHit =>
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

const throttlePair = preparedStatement(
  'berth_throttle_pair',
  (db, v: { now: Date; first: string; firstSince: Date; firstLimit: number; second: string; secondSince: Date; secondLimit: number }) =>
    sql<{ first_id: number | null; first_oldest: Date | string | null; second_id: number | null; second_oldest: Date | string | null }>`
      select first_id, first_oldest, second_id, second_oldest from public.take_throttle_hit_pair(${v.now},
        ${v.first}, ${v.firstSince}, ${v.firstLimit}, ${v.second}, ${v.secondSince}, ${v.secondLimit})`.compile(db),
);

/** Two hits on two keys in one call (migration 0027): the first key is locked first. */
export const takeThrottleHitPair = async (
  db: Db,
  now: Date,
  first: ThrottleHitQuery,
  second: ThrottleHitQuery,
): Promise<[TakenHit, TakenHit]> => {
  const { rows } = await throttlePair(db, {
    now,
    first: first.key,
    firstSince: first.since,
    firstLimit: first.limit,
    second: second.key,
    secondSince: second.since,
    secondLimit: second.limit,
  });
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

/*
 * The sign-in in two statements, because on a 2-core server each round trip wakes a database
 * backend that competes with argon2 for the CPU (bench: logins against raw argon2id verifies).
 */

type CandidateTriesRow = UserRow & {
  throttle_key: string;
  first_id: number | null;
  first_oldest: Date | string | null;
  second_id: number | null;
  second_oldest: Date | string | null;
};

const loginCandidateTakingTries = preparedStatement(
  'berth_login_candidate_tries',
  (
    db,
    v: {
      tenantId: number;
      email: string;
      emailKey: string;
      now: Date;
      minePrefix: string;
      mineSince: Date;
      mineLimit: number;
      theirsKey: string;
      theirsSince: Date;
      theirsLimit: number;
    },
  ) =>
    sql<CandidateTriesRow>`with candidate as materialized (${loginCandidateQuery(db, v.tenantId, v.email)}),
      account as (select coalesce('user:' || (select id from candidate), ${v.emailKey}::text) as throttle_key)
      select candidate.*, account.throttle_key, t.first_id, t.first_oldest, t.second_id, t.second_oldest
        from account
        cross join lateral public.take_throttle_hit_pair(${v.now}, ${v.minePrefix}::text || account.throttle_key,
          ${v.mineSince}, ${v.mineLimit}, ${v.theirsKey}, ${v.theirsSince}, ${v.theirsLimit}) t
        left join candidate on true`.compile(db),
);

/**
 * The account an e-mail signs in to (users/queries.ts loginCandidateQuery) and the tries on its
 * throttle and the address's, in one statement: the account's key is its id when it exists, the
 * e-mail otherwise (modules/auth/service.ts).
 */
export const findLoginCandidateTakingTries = async (
  db: Db,
  tenantId: number,
  email: string,
  q: PairQueries,
): Promise<{ user: UserRow | undefined; key: string; hits: [TakenHit, TakenHit] }> => {
  const emailLowerCase = email.toLowerCase();
  const { rows } = await loginCandidateTakingTries(db, {
    tenantId,
    email: emailLowerCase,
    emailKey: `email:${emailLowerCase}`,
    now: q.now,
    minePrefix: q.mine.prefix,
    mineSince: q.mine.since,
    mineLimit: q.mine.limit,
    theirsKey: q.theirs.key,
    theirsSince: q.theirs.since,
    theirsLimit: q.theirs.limit,
  });
  const row = rows[0];
  if (!row) throw new Error('take_throttle_hit_pair answered no row');
  const { throttle_key, first_id, first_oldest, second_id, second_oldest, ...user } = row;
  return {
    user: user.id === null ? undefined : (user as UserRow),
    key: throttle_key,
    hits: [takenHit(first_id, first_oldest, q.now), takenHit(second_id, second_oldest, q.now)],
  };
};

// The audit row and the session row share column names (tenant_id, user_id, ip, created_at): the
// statement's values name the audit's with a prefix, and the audit insert reads them through it.
type Prefixed<T, P extends string> = { [K in keyof T & string as `${P}${K}`]: T[K] };
const AUDIT_PREFIX = 'audit_';
const prefixed = <T extends object>(values: T) =>
  Object.fromEntries(Object.entries(values).map(([key, value]) => [AUDIT_PREFIX + key, value])) as Prefixed<T, typeof AUDIT_PREFIX>;
const unprefixed = <T extends object>(values: Prefixed<T, typeof AUDIT_PREFIX>): T =>
  new Proxy({} as T, {
    get: (_target, key) => (typeof key === 'string' ? (values as Record<string, unknown>)[AUDIT_PREFIX + key] : undefined),
  });

// One try by id and one key, not arrays: with arrays PostgreSQL plans the statement again at every
// sign-in (its generic plan guesses ten elements and looks dearer); with scalars the plan is made
// once (db/prepared.api.test.ts).
const signIn = preparedStatement(
  'berth_sign_in',
  (db, v: { release_id: number | null; release_key: string } & Prefixed<AuditRowValues, typeof AUDIT_PREFIX> & NewSessionRow) =>
    db
      .with('released', (qb) =>
        qb.deleteFrom('throttle_hits').where(sql<boolean>`id = ${v.release_id}::integer or key = ${v.release_key}::text`),
      )
      .with('audited', () => auditEntryInsert(db, unprefixed<AuditRowValues>(v)))
      .with('session', () => sessionInsert(db, v))
      // Committed without waiting for the disk (docs/decisions/0022-sign-in-commits-asynchronously.md):
      // the setting is the transaction's own, so it ends with this statement and no other write on
      // the pooled connection changes (db/prepared.api.test.ts).
      .selectNoFrom(sql<string>`set_config('synchronous_commit', 'off', true)`.as('synchronous_commit')),
);

/**
 * A sign-in that passed: its tries cleared (throttle.ts onPass), its audit row and its session row,
 * in one statement committed asynchronously.
 */
export const recordSignIn = (db: Db, release: { id: number | null; key: string }, audit: AuditRowValues, session: NewSessionRow) =>
  signIn(db, {
    release_id: release.id,
    release_key: release.key,
    ...prefixed(audit),
    ...session,
  });
