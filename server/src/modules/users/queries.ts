import { sql } from 'kysely';
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { UsersTable } from '../../db/schema.ts';

export type UserRow = Selectable<UsersTable>;

/**
 * Login looks in the request's tenant first; a super admin may sign in at any tenant's host.
 * E-mail is case-folded on both sides.
 */
export const findLoginCandidate = (db: Db, tenantId: number, email: string) =>
  db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .where((eb) => eb.or([eb('tenant_id', '=', tenantId), eb('role', '=', 'super_admin')]))
    .orderBy(sql`tenant_id = ${tenantId}`, 'desc')
    .limit(1)
    .executeTakeFirst();

export const findUserById = (db: Db, id: number) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

export const findUserByTenantEmail = (db: Db, tenantId: number, email: string) =>
  db
    .selectFrom('users')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();

export const insertUser = (db: Db, values: Insertable<UsersTable>) =>
  db
    .insertInto('users')
    .values({
      ...values,
      phones: sql`${JSON.stringify(values.phones ?? [])}::jsonb`,
      notifications_viewed: sql`${JSON.stringify(values.notifications_viewed ?? [])}::jsonb`,
    } as Insertable<UsersTable>)
    .returningAll()
    .executeTakeFirstOrThrow();

export const updatePasswordHash = (db: Db, userId: number, passwordHash: string, now: Date) =>
  db.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', userId).execute();

export const countSuperAdmins = async (db: Db): Promise<number> => {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'super_admin')
    .executeTakeFirstOrThrow();
  return Number(row.n);
};
