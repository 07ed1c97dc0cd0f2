import type { Db } from '../db/connection.ts';

/** Stores `value` under `name` unless a value is there already; the first writer wins. */
export const insertSecretOnce = (db: Db, name: string, value: string) =>
  db
    .insertInto('app_secrets')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();

export const findSecret = (db: Db, name: string) =>
  db.selectFrom('app_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
