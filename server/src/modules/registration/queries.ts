import { sql, type Insertable } from 'kysely';
import type { RegistrationsTable } from '../../db/schema.ts';
import type { Db } from '../../db/connection.ts';

export const replaceVerification = async (db: Db, values: { code_hash: string; user_id: number; created_at: Date; expires_at: Date }) => {
  await db.deleteFrom('email_verifications').where('user_id', '=', values.user_id).execute();
  await db.insertInto('email_verifications').values(values).execute();
};

/** Spends a live code and marks the user verified, in one statement pair inside the caller's transaction. */
export const claimVerification = async (db: Db, codeHash: string, now: Date): Promise<number | undefined> => {
  const row = await db
    .updateTable('email_verifications')
    .set({ used_at: now })
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  if (!row) return undefined;
  await db.updateTable('users').set({ email_verified_at: now, updated_at: now }).where('id', '=', row.user_id).execute();
  return row.user_id;
};

/** Replaces the address's pending registration on its tenant, if any, with this one. */
export const replaceRegistration = async (db: Db, values: Insertable<RegistrationsTable>) => {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('registrations')
      .where('tenant_id', '=', values.tenant_id)
      .where(sql<string>`lower(email)`, '=', values.email.toLowerCase())
      .execute();
    await trx.insertInto('registrations').values(values).execute();
  });
};

/** Takes a live pending registration by its code: of concurrent claims only one gets the row. */
export const claimRegistration = (db: Db, tenantId: number, codeHash: string, now: Date) =>
  db
    .deleteFrom('registrations')
    .where('tenant_id', '=', tenantId)
    .where('code_hash', '=', codeHash)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();

export const deleteExpiredRegistrations = (db: Db, now: Date) => db.deleteFrom('registrations').where('expires_at', '<=', now).execute();
