import { preparedStatement, type Db } from '../../db/connection.ts';

/** A new session's row as written (every column named, so the statement's text is one); `public_id` is the database's. */
export interface NewSessionRow {
  id_hash: string;
  user_id: number;
  tenant_id: number;
  remember: boolean;
  two_factor_pending: boolean;
  ip: string | null;
  user_agent: string | null;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  two_factor_started_at: Date | null;
}

/** A session's insert (also the last part of the sign-in's single write, modules/auth/queries.ts). */
export const sessionInsert = (db: Db, row: NewSessionRow) =>
  db.insertInto('sessions').values({
    id_hash: row.id_hash,
    user_id: row.user_id,
    tenant_id: row.tenant_id,
    remember: row.remember,
    two_factor_pending: row.two_factor_pending,
    ip: row.ip,
    user_agent: row.user_agent,
    created_at: row.created_at,
    last_seen_at: row.last_seen_at,
    expires_at: row.expires_at,
    two_factor_started_at: row.two_factor_started_at,
  });

/** Every sign-in makes one (sessions/service.ts write). */
export const insertSession = preparedStatement('berth_session_insert', sessionInsert);

/** The session with its user in one round trip: this runs on every authenticated request. */
const sessionWithUser = (db: Db, idHash: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select([
      'sessions.id_hash as session_id_hash',
      'sessions.public_id as session_public_id',
      'sessions.two_factor_started_at as session_two_factor_started_at',
      'sessions.tenant_id as session_tenant_id',
      'sessions.remember as session_remember',
      'sessions.two_factor_pending as session_two_factor_pending',
      'sessions.created_at as session_created_at',
      'sessions.last_seen_at as session_last_seen_at',
      'sessions.expires_at as session_expires_at',
    ])
    // What GET /api/user shows beside the user, in the same round trip (one query per request).
    .leftJoin('session_impersonations as imp', 'imp.session_id_hash', 'sessions.id_hash')
    .leftJoin('users as imp_user', 'imp_user.id', 'imp.impersonator_id')
    .leftJoin('credit_accounts as credit', 'credit.user_id', 'users.id')
    .leftJoin('user_avatars as avatar', 'avatar.user_id', 'users.id')
    .select([
      'imp.impersonator_id as imp_id',
      'imp_user.email as imp_email',
      'imp_user.given_name as imp_given_name',
      'imp_user.sn as imp_sn',
      'imp_user.role as imp_role',
      'credit.balance as credit_balance',
      'credit.currency as credit_currency',
      'avatar.user_id as avatar_user_id',
    ])
    .where('sessions.id_hash', '=', idHash);

export type SessionWithUserRow = Awaited<ReturnType<ReturnType<typeof sessionWithUser>['executeTakeFirstOrThrow']>>;

const sessionWithUserStatement = preparedStatement('berth_session_with_user', (db, v: { idHash: string }) => sessionWithUser(db, v.idHash));

/** Every API request runs this: compiled once, and a prepared statement on PostgreSQL. */
export async function findSessionWithUser(db: Db, idHash: string): Promise<SessionWithUserRow | undefined> {
  const { rows } = await sessionWithUserStatement(db, { idHash });
  return rows[0];
}

export const touchSession = (db: Db, idHash: string, now: Date) =>
  db.updateTable('sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();

export const deleteSession = (db: Db, idHash: string) => db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();

export const deleteUserSessions = (db: Db, userId: number, exceptIdHash?: string) => {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptIdHash) query = query.where('id_hash', '!=', exceptIdHash);
  return query.execute();
};

export const deleteExpiredSessions = (db: Db, now: Date) => db.deleteFrom('sessions').where('expires_at', '<=', now).execute();

export const listUserSessions = (db: Db, userId: number) =>
  db
    .selectFrom('sessions')
    .select(['id_hash', 'public_id', 'ip', 'user_agent', 'created_at', 'last_seen_at', 'expires_at', 'remember', 'two_factor_pending'])
    .where('user_id', '=', userId)
    .orderBy('last_seen_at', 'desc')
    .execute();

export const deleteUserSessionByPublicId = async (db: Db, userId: number, publicId: string): Promise<number> => {
  const result = await db.deleteFrom('sessions').where('user_id', '=', userId).where('public_id', '=', publicId).executeTakeFirst();
  return Number(result.numDeletedRows);
};
