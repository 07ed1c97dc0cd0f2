import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';

export const findDomainUserByUid = (db: Db, uid: string) =>
  db
    .selectFrom('domain_users')
    .selectAll()
    .where(sql<string>`lower(uid)`, '=', uid.toLowerCase())
    .executeTakeFirst();

export const updateDomainUserPassword = (db: Db, id: number, passwordHash: string, now: Date) =>
  db.updateTable('domain_users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', id).execute();

export const insertDomainUser = (db: Db, values: { tenant_id: number; domain_id: number; uid: string; password_hash: string }) =>
  db.insertInto('domain_users').values(values).returningAll().executeTakeFirstOrThrow();
