import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';

export const setPendingSecret = (db: Db, userId: number, secret: string | null) =>
  db.updateTable('users').set({ google2fa_pending_secret: secret }).where('id', '=', userId).execute();

export const activateSecret = (db: Db, userId: number, secret: string, step: number, now: Date) =>
  db
    .updateTable('users')
    .set({ google2fa_secret: secret, google2fa_pending_secret: null, google2fa_enabled: true, google2fa_last_step: step, updated_at: now })
    .where('id', '=', userId)
    .execute();

export const deactivate = (db: Db, userId: number, now: Date) =>
  db
    .updateTable('users')
    .set({ google2fa_secret: null, google2fa_pending_secret: null, google2fa_enabled: false, google2fa_last_step: 0, updated_at: now })
    .where('id', '=', userId)
    .execute();

/**
 * Claims a TOTP time step: succeeds only if no equal or later step was used before, so a code
 * works once even when ten requests race with it.
 */
export const claimTimeStep = async (db: Db, userId: number, step: number): Promise<boolean> => {
  const result = await db
    .updateTable('users')
    .set({ google2fa_last_step: step })
    .where('id', '=', userId)
    .where('google2fa_last_step', '<', step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
};

export const replaceRecoveryCodes = async (db: Db, userId: number, hashes: string[]) => {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  if (hashes.length) {
    await db
      .insertInto('recovery_codes')
      .values(hashes.map((code_hash) => ({ user_id: userId, code_hash })))
      .execute();
  }
};

/** Marks a recovery code used; only one of several concurrent uses gets the row. */
export const claimRecoveryCode = async (db: Db, userId: number, hash: string, now: Date): Promise<boolean> => {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
};

export const countUnusedRecoveryCodes = async (db: Db, userId: number): Promise<number> => {
  const row = await db
    .selectFrom('recovery_codes')
    .select(sql<number>`count(*)`.as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

/** Writes a seed again (sealed under the current key) unless it changed meanwhile. */
export const resealSecret = (db: Db, userId: number, before: string, after: string) =>
  db.updateTable('users').set({ google2fa_secret: after }).where('id', '=', userId).where('google2fa_secret', '=', before).execute();

export const listStoredSeeds = (db: Db) =>
  db
    .selectFrom('users')
    .select(['id', 'google2fa_secret', 'google2fa_pending_secret'])
    .where((eb) => eb.or([eb('google2fa_secret', 'is not', null), eb('google2fa_pending_secret', 'is not', null)]))
    .execute();

export const resealPendingSecret = (db: Db, userId: number, before: string, after: string) =>
  db
    .updateTable('users')
    .set({ google2fa_pending_secret: after })
    .where('id', '=', userId)
    .where('google2fa_pending_secret', '=', before)
    .execute();
