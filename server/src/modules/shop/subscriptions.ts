import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';
import { translate } from '../../i18n/messages.ts';
import { post } from '../credit/ledger.ts';
import type { UserRow } from '../users/queries.ts';
import { languageOf } from './language.ts';
import { addMonths, vatOf } from './money.ts';
import { endSubscription, ensureShop, lockSubscription, paidForOrderItem } from './queries.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Inside the caller's transaction: ends the user's active plan `id` now and credits the unused
 * part of what was paid for it, by whole days (the day it ends is used), as WHMCS credits unused
 * time. The row is locked first, so of simultaneous calls one ends it and the others are told it
 * is no longer active. Cancelling and changing a plan (orders/checkout.ts) both end it here.
 */
export async function endWithRefund(
  trx: Db,
  user: UserRow,
  id: number,
  now: Date,
): Promise<{ title: string; planId: number | null; refunded: number; currency: string }> {
  const row = await lockSubscription(trx, id, user.id);
  if (!row) throw new HttpError(404, 'http.not_found');
  const starts = new Date(row.starts_at).getTime();
  const expires = new Date(row.expires_at).getTime();
  if (expires <= now.getTime()) throw new HttpError(409, 'services.not_active');
  const paid = row.order_item_id === null ? undefined : await paidForOrderItem(trx, row.order_item_id);
  const settings = await ensureShop(trx, user.tenant_id);
  const currency = paid?.currency ?? settings.currency;
  let refunded = 0;
  if (paid && paid.status === 'paid') {
    const net = Number(paid.net) - Number(paid.discount);
    const gross = net + vatOf(net, paid.vat_rate_bp);
    const days = (ms: number) => Math.floor(ms / DAY_MS);
    // The term this payment covers: after a renewal, the months renewed up to the end, not the whole run.
    const termStarts = Math.max(starts, addMonths(new Date(expires), -paid.period_months).getTime());
    const total = Math.max(1, days(expires - termStarts));
    const unused = Math.max(0, days(expires - now.getTime()));
    refunded = Math.floor((gross * Math.min(unused, total)) / total);
  }
  await endSubscription(trx, row.id, now);
  if (refunded > 0) {
    await post(trx, {
      tenantId: user.tenant_id,
      userId: user.id,
      amount: refunded,
      currency,
      type: 'refund',
      description: translate(languageOf(user), 'credit.entry.unused', { title: row.title }),
      reference: `cancel:subscription:${row.id}`,
      now,
    });
  }
  return { title: row.title, planId: row.plan_id, refunded, currency };
}
