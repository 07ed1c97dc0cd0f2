import type { Insertable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { SessionsTable } from '../../db/schema.ts';

export const insertSession = (db: Db, values: Insertable<SessionsTable>) =>
  db.insertInto('sessions').values(values).execute();

/** The session with its user in one round trip: this runs on every authenticated request. */
export const findSessionWithUser = (db: Db, idHash: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select([
      'sessions.id_hash as session_id_hash',
      'sessions.tenant_id as session_tenant_id',
      'sessions.remember as session_remember',
      'sessions.two_factor_pending as session_two_factor_pending',
      'sessions.created_at as session_created_at',
      'sessions.last_seen_at as session_last_seen_at',
      'sessions.expires_at as session_expires_at',
    ])
    .where('sessions.id_hash', '=', idHash)
    .executeTakeFirst();

export const touchSession = (db: Db, idHash: string, now: Date) =>
  db.updateTable('sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();

export const deleteSession = (db: Db, idHash: string) =>
  db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();

export const deleteUserSessions = (db: Db, userId: number, exceptIdHash?: string) => {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (exceptIdHash) query = query.where('id_hash', '!=', exceptIdHash);
  return query.execute();
};

export const deleteExpiredSessions = (db: Db, now: Date) =>
  db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
