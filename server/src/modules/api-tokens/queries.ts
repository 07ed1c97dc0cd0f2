import { sql, type Insertable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { ApiTokensTable } from '../../db/schema.ts';

const withOwner = (db: Db) =>
  db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .selectAll('api_tokens')
    .select(['users.email as owner_email', 'users.given_name as owner_given_name', 'users.sn as owner_sn']);

export type ApiTokenRow = Awaited<ReturnType<ReturnType<typeof withOwner>['executeTakeFirstOrThrow']>>;

/** A user's tokens that are not revoked, newest first. */
export const listUserTokens = (db: Db, userId: number) =>
  withOwner(db)
    .where('api_tokens.user_id', '=', userId)
    .where('api_tokens.revoked_at', 'is', null)
    .orderBy('api_tokens.id', 'desc')
    .execute();

/** A tenant's tokens that are not revoked, newest first (for its admins). */
export const listTenantTokens = (db: Db, tenantId: number) =>
  withOwner(db)
    .where('api_tokens.tenant_id', '=', tenantId)
    .where('api_tokens.revoked_at', 'is', null)
    .orderBy('api_tokens.id', 'desc')
    .execute();

export const findTokenWithOwner = (db: Db, id: number) => withOwner(db).where('api_tokens.id', '=', id).executeTakeFirst();

/** The token of a hash with its user, for authenticating a request. */
export const findTokenByHash = (db: Db, tokenHash: string) =>
  db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .leftJoin('credit_accounts as credit', 'credit.user_id', 'users.id')
    .leftJoin('user_avatars as avatar', 'avatar.user_id', 'users.id')
    .selectAll('users')
    .select([
      'api_tokens.id as token_id',
      'api_tokens.tenant_id as token_tenant_id',
      'api_tokens.scopes as token_scopes',
      'api_tokens.allowed_ips as token_allowed_ips',
      'api_tokens.expires_at as token_expires_at',
      'api_tokens.revoked_at as token_revoked_at',
      'api_tokens.last_used_at as token_last_used_at',
      'credit.balance as credit_balance',
      'credit.currency as credit_currency',
      'avatar.user_id as avatar_user_id',
    ])
    .where('api_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();

/** Locks the user's row: creating tokens one after another keeps the per-user limit under races. */
export const lockUser = (db: Db, userId: number) =>
  db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();

export const countActiveTokens = async (db: Db, userId: number): Promise<number> => {
  const row = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

export const insertToken = (db: Db, values: Insertable<ApiTokensTable>) =>
  db.insertInto('api_tokens').values(values).returning('id').executeTakeFirstOrThrow();

export const revokeToken = async (db: Db, id: number, now: Date): Promise<boolean> => {
  const result = await db
    .updateTable('api_tokens')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
};

/** Last use, written at most once a minute per token, also when requests race (a read must not become a write each time). */
export const touchToken = (db: Db, id: number, now: Date, ip: string) =>
  db
    .updateTable('api_tokens')
    .set({ last_used_at: now, last_used_ip: ip })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', sql<Date>`${now}::timestamptz - interval '1 minute'`)]))
    .execute();
