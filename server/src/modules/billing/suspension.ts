import type { Db } from '../../db/connection.ts';
import { isLanguage, translate } from '../../i18n/messages.ts';
import { insertNotification } from '../notifications/queries.ts';
import type { EventSink } from '../webhooks/events.ts';
import { liftUserSuspension, overdueBeyondGrace } from './queries.ts';

/**
 * Inside the transaction that settles an invoice (invoices/settlement.ts): a suspended payer with
 * no unpaid invoice left beyond its grace period is unsuspended at once. Their sites, FTP and
 * mailbox logins follow from the same row (migration 0033), so they work again as soon as the
 * daemons hear of it (seconds). Answers whether the suspension was lifted.
 */
export async function liftSuspensionIfSettled(trx: Db, userId: number, now: Date, events?: EventSink): Promise<boolean> {
  if ((await overdueBeyondGrace(trx, userId, now)).length > 0) return false;
  const lifted = await liftUserSuspension(trx, userId);
  if (!lifted) return false;
  await insertNotification(trx, {
    tenant_id: lifted.tenant_id,
    user_id: lifted.id,
    type: 'info',
    text: translate(isLanguage(lifted.language) ? lifted.language : 'en', 'billing.unsuspended_notice'),
    created_at: now,
  });
  await events?.emit(trx, lifted.tenant_id, 'service.unsuspended', { customer: { id: lifted.id, email: lifted.email }, invoices: [] });
  return true;
}
