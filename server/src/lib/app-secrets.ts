import type { Db } from '../db/connection.ts';
import { findSecret, insertSecretOnce } from './queries.ts';
import { randomToken } from './tokens.ts';

/**
 * A server secret shared by every instance (e.g. the captcha HMAC key): generated once, kept in
 * the database, unless configuration supplies one.
 */
export async function getOrCreateSecret(db: Db, name: string): Promise<string> {
  await insertSecretOnce(db, name, randomToken(32));
  return (await findSecret(db, name)).value;
}
