import type { Db } from '../../db/connection.ts';
import { addToBalance, insertEntry, lockAccount, type CreditEntryRow } from './queries.ts';

export interface Posting {
  tenantId: number;
  userId: number;
  /** Signed minor units: credits positive, debits negative. */
  amount: number;
  currency: string;
  type: CreditEntryRow['type'];
  description: string;
  /** Unique across the ledger: the same reference posts once (a repeated confirmation is a no-op). */
  reference: string;
  invoiceId?: number | null;
  actorId?: number | null;
  now: Date;
}

export type PostingResult =
  { status: 'posted'; entry: CreditEntryRow; balance: number } | { status: 'duplicate' } | { status: 'insufficient'; balance: number };

/**
 * Posts one ledger entry inside the caller's transaction. The user's account row is locked first,
 * so concurrent debits queue on it and the balance check sees every earlier one: a debit never
 * takes the balance below zero.
 */
export async function post(trx: Db, posting: Posting): Promise<PostingResult> {
  const account = await lockAccount(trx, posting.userId, posting.tenantId, posting.currency, posting.now);
  const balance = Number(account.balance);
  if (posting.amount < 0 && balance + posting.amount < 0) return { status: 'insufficient', balance };
  const entry = await insertEntry(trx, {
    tenant_id: posting.tenantId,
    user_id: posting.userId,
    amount: posting.amount,
    currency: posting.currency,
    type: posting.type,
    description: posting.description,
    reference: posting.reference,
    invoice_id: posting.invoiceId ?? null,
    actor_id: posting.actorId ?? null,
    created_at: posting.now,
  });
  if (!entry) return { status: 'duplicate' };
  const updated = await addToBalance(trx, posting.userId, posting.amount, posting.now);
  return { status: 'posted', entry, balance: Number(updated.balance) };
}
