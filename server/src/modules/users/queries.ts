import { sql } from 'kysely';
import type { Insertable, Selectable } from 'kysely';
import { preparedStatement, type Db } from '../../db/connection.ts';
import type { UsersTable } from '../../db/schema.ts';

export type UserRow = Selectable<UsersTable>;

/**
 * The account a lower-cased e-mail signs in to: the request's tenant first; a super admin may
 * sign in at any tenant's host. E-mail is case-folded on both sides.
 */
export const loginCandidateQuery = (db: Db, tenantId: number, emailLowerCase: string) =>
  db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', emailLowerCase)
    .where((eb) => eb.or([eb('tenant_id', '=', tenantId), eb('role', '=', 'super_admin')]))
    .orderBy(sql`tenant_id = ${tenantId}`, 'desc')
    .limit(1);

const loginCandidate = preparedStatement('berth_login_candidate', (db, values: { tenantId: number; email: string }) =>
  loginCandidateQuery(db, values.tenantId, values.email),
);

export const findLoginCandidate = async (db: Db, tenantId: number, email: string): Promise<UserRow | undefined> =>
  (await loginCandidate(db, { tenantId, email: email.toLowerCase() })).rows[0];

export const findUserById = (db: Db, id: number) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();

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

/** The own name, phones and billing details (PATCH /api/user/profile). */
export const updateUserProfile = (
  db: Db,
  userId: number,
  values: Pick<UsersTable, 'given_name' | 'sn' | 'company' | 'vat_id' | 'street' | 'city' | 'postal_code' | 'country'> extends infer T
    ? { [K in keyof T]: string } & { phones: string[] }
    : never,
  now: Date,
) =>
  db
    .updateTable('users')
    // jsonb: PostgreSQL's driver would send a JS array as a text[] literal.
    .set({ ...values, phones: sql`${JSON.stringify(values.phones)}::jsonb` as unknown as string[], updated_at: now })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();

export const updateUserLanguage = (db: Db, userId: number, language: string, now: Date) =>
  db.updateTable('users').set({ language, updated_at: now }).where('id', '=', userId).returningAll().executeTakeFirstOrThrow();

/** Adds a notification key once; concurrent calls cannot duplicate it. */
export const markNotificationViewed = (db: Db, userId: number, notification: string) =>
  db
    .updateTable('users')
    .set({
      notifications_viewed: sql`case when notifications_viewed ? ${notification} then notifications_viewed
        else notifications_viewed || jsonb_build_array(${notification}::text) end`,
    })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();

export const upsertAvatar = (db: Db, userId: number, image: Buffer, now: Date) =>
  db
    .insertInto('user_avatars')
    .values({ user_id: userId, image, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ image, updated_at: now }))
    .execute();

export const findAvatar = (db: Db, userId: number) =>
  db.selectFrom('user_avatars').select(['image', 'updated_at']).where('user_id', '=', userId).executeTakeFirst();

/** Whether the user uploaded a picture, without reading it. */
export const findAvatarOwner = (db: Db, userId: number) =>
  db.selectFrom('user_avatars').select('user_id').where('user_id', '=', userId).executeTakeFirst();

export const deleteAvatar = (db: Db, userId: number) => db.deleteFrom('user_avatars').where('user_id', '=', userId).execute();

/** Moves the user's updated_at, which versions the avatar URL so browsers fetch the new picture. */
export const touchUser = (db: Db, userId: number, now: Date) =>
  db.updateTable('users').set({ updated_at: now }).where('id', '=', userId).execute();

/** A new, unverified e-mail address for the user. */
export const changeUserEmail = (db: Db, userId: number, email: string, now: Date) =>
  db
    .updateTable('users')
    .set({ email, email_verified_at: null, updated_at: now })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
