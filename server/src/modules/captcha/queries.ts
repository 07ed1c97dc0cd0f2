import type { Db } from '../../db/connection.ts';

/** Records a solved challenge; false when it was recorded before (a replay). */
export const claimCaptchaUse = async (db: Db, signature: string, expiresAt: Date): Promise<boolean> => {
  const rows = await db
    .insertInto('captcha_uses')
    .values({ signature, expires_at: expiresAt })
    .onConflict((oc) => oc.column('signature').doNothing())
    .returning('signature')
    .execute();
  return rows.length === 1;
};

/** Expired challenges fail on their own expiry, so their rows are no longer needed. */
export const deleteExpiredCaptchaUses = (db: Db, now: Date) => db.deleteFrom('captcha_uses').where('expires_at', '<', now).execute();
