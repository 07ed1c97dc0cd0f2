import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { CreditLedgerTable } from '../../db/schema.ts';

export type CreditEntryRow = Selectable<CreditLedgerTable>;

/** The account row every debit locks; created on first use. */
export async function lockAccount(trx: Db, userId: number, tenantId: number, currency: string, now: Date) {
  await trx
    .insertInto('credit_accounts')
    .values({ user_id: userId, tenant_id: tenantId, balance: 0, currency, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  return trx.selectFrom('credit_accounts').selectAll().where('user_id', '=', userId).forUpdate().executeTakeFirstOrThrow();
}

/** Inserts an entry unless its reference exists (idempotent crediting); undefined when it did. */
export const insertEntry = (trx: Db, values: Omit<CreditEntryRow, 'id'>) =>
  trx
    .insertInto('credit_ledger')
    .values(values)
    .onConflict((oc) => oc.column('reference').doNothing())
    .returningAll()
    .executeTakeFirst();

export const addToBalance = (trx: Db, userId: number, amount: number, now: Date) =>
  trx
    .updateTable('credit_accounts')
    .set({ balance: sql`balance + ${amount}`, updated_at: now })
    .where('user_id', '=', userId)
    .returning(['balance'])
    .executeTakeFirstOrThrow();

/** The cached balance (the ledger's sum, kept under the account lock); zero without an account. */
export async function balanceOf(db: Db, userId: number): Promise<{ balance: number; currency: string | null }> {
  const row = await db.selectFrom('credit_accounts').select(['balance', 'currency']).where('user_id', '=', userId).executeTakeFirst();
  return { balance: row ? Number(row.balance) : 0, currency: row?.currency ?? null };
}

/** The ledger's own sum, for checks that the cached balance never drifts. */
export async function ledgerSum(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('credit_ledger')
    .select(sql<string>`coalesce(sum(amount), 0)`.as('total'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export interface LedgerFilter {
  userId: number;
  from?: Date | undefined;
  to?: Date | undefined;
  type?: CreditEntryRow['type'] | undefined;
  /** Keyset: entries strictly older than this (created_at, id). */
  before?: { createdAt: Date; id: number } | undefined;
  limit: number;
}

/** Newest first; keyset on (created_at, id) served by credit_ledger_user. */
export function listEntries(db: Db, filter: LedgerFilter) {
  let query = db.selectFrom('credit_ledger').selectAll().where('user_id', '=', filter.userId);
  if (filter.from) query = query.where('created_at', '>=', filter.from);
  if (filter.to) query = query.where('created_at', '<', filter.to);
  if (filter.type) query = query.where('type', '=', filter.type);
  const before = filter.before;
  if (before) {
    query = query.where((eb) =>
      eb.or([eb('created_at', '<', before.createdAt), eb.and([eb('created_at', '=', before.createdAt), eb('id', '<', before.id)])]),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}
