import type { Insertable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { PasskeysTable, WebauthnChallengesTable } from '../../db/schema.ts';

export const listPasskeys = (db: Db, userId: number) =>
  db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('id').execute();

export const findPasskey = (db: Db, userId: number, id: number) =>
  db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();

/** The passkey a browser answered with, and its user. */
export const findPasskeyByCredential = (db: Db, credentialId: string) =>
  db.selectFrom('passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();

export const insertPasskey = (db: Db, values: Insertable<PasskeysTable>) =>
  db.insertInto('passkeys').values(values).returning('id').executeTakeFirstOrThrow();

export const renamePasskey = (db: Db, userId: number, id: number, name: string) =>
  db.updateTable('passkeys').set({ name }).where('user_id', '=', userId).where('id', '=', id).returningAll().executeTakeFirst();

export const deletePasskey = async (db: Db, userId: number, id: number): Promise<boolean> => {
  const result = await db.deleteFrom('passkeys').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
};

/** Moves the counter forward only from the value that was checked: a second use of the same answer loses. */
export const advancePasskey = async (db: Db, id: number, from: number, to: number, backedUp: boolean, now: Date): Promise<boolean> => {
  const result = await db
    .updateTable('passkeys')
    .set({ counter: to, backed_up: backedUp, last_used_at: now })
    .where('id', '=', id)
    .where('counter', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
};

export const countPasskeys = async (db: Db, userId: number): Promise<number> => {
  const row = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

/** Keeps users.passkey_enabled in step with the user's passkeys. */
export const syncPasskeyFlag = async (db: Db, userId: number): Promise<void> => {
  const count = await countPasskeys(db, userId);
  await db
    .updateTable('users')
    .set({ passkey_enabled: count > 0 })
    .where('id', '=', userId)
    .execute();
};

export const lockUserRow = (db: Db, userId: number) =>
  db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();

export const insertChallenge = (db: Db, values: Insertable<WebauthnChallengesTable>) =>
  db.insertInto('webauthn_challenges').values(values).execute();

/** Takes a challenge out for good: of simultaneous uses, one gets it. */
export const takeChallenge = (db: Db, id: string, purpose: 'register' | 'login', now: Date) =>
  db
    .deleteFrom('webauthn_challenges')
    .where('id', '=', id)
    .where('purpose', '=', purpose)
    .where('expires_at', '>', now)
    .returningAll()
    .executeTakeFirst();

export const deleteExpiredChallenges = (db: Db, now: Date) => db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute();
