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

/* ---- /host/domain/{id}/users ---- */

export const listDomainUsers = (db: Db, domainId: number, options: { after?: readonly [string, number] | undefined; limit: number }) => {
  let query = db
    .selectFrom('domain_users')
    .select(['id', 'domain_id', 'uid', 'quota_mb', 'enabled', 'created_at', 'updated_at'])
    .where('domain_id', '=', domainId)
    .orderBy('uid')
    .orderBy('id')
    .limit(options.limit);
  if (options.after) query = query.where(sql<boolean>`(uid, id) > (${options.after[0]}, ${options.after[1]})`);
  return query.execute();
};

export const findDomainUser = (db: Db, domainId: number, id: number) =>
  db
    .selectFrom('domain_users')
    .select(['id', 'tenant_id', 'domain_id', 'uid', 'quota_mb', 'enabled', 'created_at', 'updated_at'])
    .where('domain_id', '=', domainId)
    .where('id', '=', id)
    .executeTakeFirst();

export const createDomainUser = (
  db: Db,
  values: {
    tenant_id: number;
    domain_id: number;
    uid: string;
    password_hash: string;
    quota_mb: number;
    enabled: boolean;
    created_at: Date;
    updated_at: Date;
  },
) =>
  db
    .insertInto('domain_users')
    .values(values)
    .returning(['id', 'tenant_id', 'domain_id', 'uid', 'quota_mb', 'enabled', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow();

export const updateDomainUser = (
  db: Db,
  domainId: number,
  id: number,
  values: { quota_mb?: number; enabled?: boolean; password_hash?: string; updated_at: Date },
) =>
  db
    .updateTable('domain_users')
    .set(values)
    .where('domain_id', '=', domainId)
    .where('id', '=', id)
    .returning(['id', 'tenant_id', 'domain_id', 'uid', 'quota_mb', 'enabled', 'created_at', 'updated_at'])
    .executeTakeFirst();

export const deleteDomainUser = async (db: Db, domainId: number, id: number): Promise<number> => {
  const result = await db.deleteFrom('domain_users').where('domain_id', '=', domainId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
};
