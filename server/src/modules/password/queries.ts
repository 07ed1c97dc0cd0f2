import type { Db } from '../../db/connection.ts';

export const replaceReset = async (
  db: Db,
  values: { uniq_id: string; user_id: number; token_hash: string; created_at: Date; expires_at: Date },
) => {
  // A newer request voids every older link of the user.
  await db.deleteFrom('password_resets').where('user_id', '=', values.user_id).execute();
  await db.insertInto('password_resets').values(values).execute();
};

export const findReset = (db: Db, uniqId: string) =>
  db.selectFrom('password_resets').selectAll().where('uniq_id', '=', uniqId).executeTakeFirst();

/** Marks the link used; of two concurrent uses only one gets the row. */
export const claimReset = async (db: Db, uniqId: string, now: Date): Promise<boolean> => {
  const result = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('uniq_id', '=', uniqId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
};
