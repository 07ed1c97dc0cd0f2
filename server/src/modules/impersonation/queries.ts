import type { Db } from '../../db/connection.ts';

export const insertImpersonation = (
  db: Db,
  values: { session_id_hash: string; impersonator_id: number; impersonator_remember: boolean; started_at: Date },
) => db.insertInto('session_impersonations').values(values).execute();

/** The admin behind a session, if an admin opened it by logging in as its user. */
export const findImpersonation = (db: Db, sessionIdHash: string) =>
  db
    .selectFrom('session_impersonations as s')
    .innerJoin('users as u', 'u.id', 's.impersonator_id')
    .select(['s.impersonator_id', 's.impersonator_remember', 's.started_at', 'u.email', 'u.given_name', 'u.sn', 'u.role'])
    .where('s.session_id_hash', '=', sessionIdHash)
    .executeTakeFirst();
