import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { OtpLoginsTable } from '../../db/schema.ts';

export const insertOtpLogin = (db: Db, values: Insertable<OtpLoginsTable>) => db.insertInto('otp_logins').values(values).execute();

export const findOtpLogin = (db: Db, uniqId: string) =>
  db.selectFrom('otp_logins').selectAll().where('uniq_id', '=', uniqId).executeTakeFirst();

export const countOtpAttempt = (db: Db, uniqId: string) =>
  db
    .updateTable('otp_logins')
    .set({ attempts: sql`attempts + 1` })
    .where('uniq_id', '=', uniqId)
    .execute();

/** Spends the code; of concurrent submissions only one gets the row. */
export const claimOtpLogin = async (db: Db, uniqId: string, maxAttempts: number, now: Date): Promise<boolean> => {
  const result = await db
    .updateTable('otp_logins')
    .set({ used_at: now })
    .where('uniq_id', '=', uniqId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where('attempts', '<', maxAttempts)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
};

/** Gives a requested code its account once the background lookup found one. */
export const bindOtpLogin = (db: Db, uniqId: string, userId: number, codeHash: string) =>
  db
    .updateTable('otp_logins')
    .set({ user_id: userId, code_hash: codeHash })
    .where('uniq_id', '=', uniqId)
    .where('user_id', 'is', null)
    .execute();
