import type { Db } from '../db/connection.ts';
import { randomToken } from './tokens.ts';

/**
 * A server secret shared by every instance (e.g. the captcha HMAC key): generated once, kept in
 * the database, unless configuration supplies one.
 */
export async function getOrCreateSecret(db: Db, name: string): Promise<string> {
  await db
    .insertInto('app_secrets')
    .values({ name, value: randomToken(32) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.selectFrom('app_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
