import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { escapeLike } from '../../db/keyset.ts';

const customerColumns = [
  'users.id',
  'users.tenant_id',
  'users.email',
  'users.given_name',
  'users.sn',
  'users.phones',
  'users.language',
  'users.locked_at',
  'users.google2fa_enabled',
  'users.email_verified_at',
  'users.created_at',
] as const;

const customers = (db: Db) =>
  db
    .selectFrom('users')
    .select(customerColumns)
    .select((eb) =>
      eb.selectFrom('domains').select(eb.fn.countAll<number>().as('n')).whereRef('domains.owner_id', '=', 'users.id').as('domain_count'),
    )
    .where('users.role', '=', 'customer');

export type CustomerRow = Awaited<ReturnType<ReturnType<typeof customers>['executeTakeFirstOrThrow']>>;

export interface CustomerPageQuery {
  tenantId: number | null;
  /** Prefix of the e-mail, given name or surname. */
  q?: string | undefined;
  locked?: boolean | undefined;
  after?: readonly [string, number] | undefined;
  limit: number;
}

/** By e-mail (case-folded), then id: keyset pages. */
export const listCustomerPage = (db: Db, q: CustomerPageQuery) => {
  let query = customers(db)
    .orderBy(sql`lower(users.email)`)
    .orderBy('users.id')
    .limit(q.limit);
  if (q.tenantId !== null) query = query.where('users.tenant_id', '=', q.tenantId);
  if (q.q) {
    const pattern = `${escapeLike(q.q.toLowerCase())}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(users.email)`, 'like', pattern),
        eb(sql`lower(users.given_name)`, 'like', pattern),
        eb(sql`lower(users.sn)`, 'like', pattern),
      ]),
    );
  }
  if (q.locked !== undefined) query = query.where('users.locked_at', q.locked ? 'is not' : 'is', null);
  if (q.after) query = query.where(sql<boolean>`(lower(users.email), users.id) > (${q.after[0]}, ${q.after[1]})`);
  return query.execute();
};

export const findCustomer = (db: Db, id: number) => customers(db).where('users.id', '=', id).executeTakeFirst();

export const emailTakenInTenant = async (db: Db, tenantId: number, email: string, exceptId: number | null): Promise<boolean> => {
  let query = db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase());
  if (exceptId !== null) query = query.where('id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
};

export const updateCustomer = (
  db: Db,
  id: number,
  values: { email?: string; given_name?: string; sn?: string; phones?: string[]; language?: string; updated_at: Date },
) => {
  const { phones, ...rest } = values;
  return db
    .updateTable('users')
    .set(phones ? { ...rest, phones: sql`${JSON.stringify(phones)}::jsonb` as unknown as string[] } : rest)
    .where('id', '=', id)
    .where('role', '=', 'customer')
    .execute();
};

export const setCustomerLocked = (db: Db, id: number, lockedAt: Date | null, now: Date) =>
  db.updateTable('users').set({ locked_at: lockedAt, updated_at: now }).where('id', '=', id).where('role', '=', 'customer').execute();

/** Two-factor off and its recovery codes gone: the customer signs in with the password and can enrol again. */
export async function resetTwoFactor(db: Db, id: number, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ google2fa_enabled: false, google2fa_secret: null, google2fa_pending_secret: null, google2fa_last_step: 0, updated_at: now })
    .where('id', '=', id)
    .execute();
  await db.deleteFrom('recovery_codes').where('user_id', '=', id).execute();
}

/** The customer, their domains and everything of those domains. */
export async function deleteCustomerWithDomains(db: Db, id: number): Promise<{ domains: number }> {
  const owned = db.selectFrom('domains').select('id').where('owner_id', '=', id);
  await db.deleteFrom('dns_records').where('domain_id', 'in', owned).execute();
  await db.deleteFrom('domain_users').where('domain_id', 'in', owned).execute();
  await db.deleteFrom('dns_zones').where('domain_id', 'in', owned).execute();
  const domains = await db.deleteFrom('domains').where('owner_id', '=', id).executeTakeFirst();
  await db.deleteFrom('users').where('id', '=', id).where('role', '=', 'customer').execute();
  return { domains: Number(domains.numDeletedRows) };
}
