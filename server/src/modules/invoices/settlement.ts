import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { AuditService } from '../audit/service.ts';
import { post } from '../credit/ledger.ts';
import { provisionOrder } from '../orders/provisioning.ts';
import { findPartner } from '../orders/queries.ts';
import type { PaymentProviderName } from '@berth/contracts';
import type { InvoiceSettlement } from '../payments/provider.ts';
import { formatMoney, shareOf } from '../shop/money.ts';
import { languageOf } from '../shop/language.ts';
import { ensureShop } from '../shop/queries.ts';
import type { RealtimeHub } from '../realtime/hub.ts';
import { findUserById } from '../users/queries.ts';
import { insertPayment, lockInvoice, markInvoicePaid, type InvoiceRow } from './queries.ts';
import { invoiceData, type EventSink } from '../webhooks/events.ts';
import { insertNotification } from '../notifications/queries.ts';
import { liftSuspensionIfSettled } from '../billing/suspension.ts';

export interface SettlementInput {
  tenantId: number;
  invoiceId: number;
  provider: PaymentProviderName;
  reference: string;
  amount: number;
  actorId: number | null;
}

export type SettlementOutcome = { settled: boolean; alreadyPaid: boolean; invoice: InvoiceRow };

/**
 * Settles an invoice inside the caller's transaction: records the payment once under its
 * (tenant, provider, reference), marks the invoice paid, then delivers the order and credits the
 * partner's commission, or credits a top-up to the payer's ledger. A repeated reference changes
 * nothing; a payment for an invoice already paid is recorded but delivers nothing twice.
 */
export async function settleInTransaction(
  trx: Db,
  input: SettlementInput,
  now: Date,
  secrets: SecretBox,
  events?: EventSink,
): Promise<SettlementOutcome> {
  const invoice = await lockInvoice(trx, input.tenantId, input.invoiceId);
  if (!invoice) throw new HttpError(404, 'http.not_found');
  if (invoice.status === 'unpaid' && input.amount < Number(invoice.gross)) {
    const payer = await findUserById(trx, invoice.user_id);
    const language = languageOf(payer);
    throw new HttpError(422, 'invoice.amount_short', {
      fields: {
        amount: [
          {
            key: 'invoice.amount_short',
            params: {
              amount: formatMoney(input.amount, invoice.currency, language),
              total: formatMoney(Number(invoice.gross), invoice.currency, language),
            },
          },
        ],
      },
    });
  }
  const payment = await insertPayment(trx, {
    tenant_id: invoice.tenant_id,
    invoice_id: invoice.id,
    provider: input.provider,
    reference: input.reference,
    amount: input.amount,
    actor_id: input.actorId,
    created_at: now,
  });
  if (!payment || invoice.status !== 'unpaid') return { settled: false, alreadyPaid: invoice.status === 'paid', invoice };
  const paid = await markInvoicePaid(trx, invoice.id, now);
  if (!paid) return { settled: false, alreadyPaid: true, invoice };

  if (paid.kind === 'credit') {
    const payer = await findUserById(trx, paid.user_id);
    await post(trx, {
      tenantId: paid.tenant_id,
      userId: paid.user_id,
      amount: Number(paid.gross),
      currency: paid.currency,
      type: 'top_up',
      description: translate(languageOf(payer), 'credit.entry.top_up', { number: paid.number }),
      reference: `top-up:invoice:${paid.id}`,
      invoiceId: paid.id,
      actorId: input.actorId,
      now,
    });
  } else if (paid.order_id !== null) {
    await provisionOrder(trx, paid.order_id, now, secrets, paid.number, events);
    await creditCommission(trx, paid, now);
  }
  await events?.emit(trx, paid.tenant_id, 'invoice.paid', invoiceData(paid));
  if (paid.order_id !== null) {
    await events?.emit(trx, paid.tenant_id, 'order.paid', {
      order: { id: paid.order_id, invoice_number: paid.number, customer_id: paid.user_id },
    });
  }
  // Any way of paying (credit, bank statement, card, an admin) ends a suspension it was the last
  // reason for, also a renewal bought in the shop that cancelled the unpaid one (orders/provisioning.ts).
  await liftSuspensionIfSettled(trx, paid.user_id, now, events);
  return { settled: true, alreadyPaid: false, invoice: paid };
}

/** The partner's share of a paid order of one of the tenant's customers (net, before VAT). */
async function creditCommission(trx: Db, invoice: InvoiceRow, now: Date): Promise<void> {
  const buyer = await findUserById(trx, invoice.user_id);
  if (!buyer || buyer.role !== 'customer') return;
  const partner = await findPartner(trx, invoice.tenant_id);
  if (!partner) return;
  const settings = await ensureShop(trx, invoice.tenant_id);
  const amount = shareOf(Number(invoice.net), settings.commission_rate_bp);
  if (amount <= 0) return;
  await post(trx, {
    tenantId: invoice.tenant_id,
    userId: partner.id,
    amount,
    currency: invoice.currency,
    type: 'commission',
    description: translate(languageOf(partner), 'credit.entry.commission', { number: invoice.number }),
    reference: `commission:invoice:${invoice.id}`,
    invoiceId: invoice.id,
    now,
  });
}

/** The InvoiceSettlement the payment providers call (bank transfer confirmation, gateway webhooks). */
export class InvoiceSettlementService implements InvoiceSettlement {
  private readonly deps: { db: Db; clock: Clock; audit: AuditService; secrets: SecretBox; realtime?: RealtimeHub; events?: EventSink };

  constructor(deps: InvoiceSettlementService['deps']) {
    this.deps = deps;
  }

  async settle(input: SettlementInput): Promise<{ settled: boolean; alreadyPaid: boolean }> {
    const now = this.deps.clock.now();
    // The payer's notice is stored with the payment (same transaction), so a payer who was offline
    // finds it on /notifications; the realtime event only tells an open page at once.
    const { outcome, notice } = await this.deps.db.transaction().execute(async (trx) => {
      const settled = await settleInTransaction(trx, input, now, this.deps.secrets, this.deps.events);
      if (!settled.settled) return { outcome: settled, notice: null };
      const payer = await findUserById(trx, settled.invoice.user_id);
      const text = translate(languageOf(payer), 'invoice.paid_notice', { number: settled.invoice.number });
      await insertNotification(trx, {
        tenant_id: settled.invoice.tenant_id,
        user_id: settled.invoice.user_id,
        type: 'info',
        text,
        created_at: now,
      });
      return { outcome: settled, notice: text };
    });
    if (outcome.settled && notice !== null) {
      await this.deps.audit.record({
        action: 'invoice.paid',
        tenantId: outcome.invoice.tenant_id,
        userId: input.actorId,
        ip: null,
        target: { type: 'invoice', id: outcome.invoice.id },
        data: { number: outcome.invoice.number, provider: input.provider, reference: input.reference, amount: input.amount },
      });
      // The payer's header (credit) and pages refresh on a notification event.
      this.deps.realtime?.notify(outcome.invoice.user_id, { type: 'info', text: notice });
    }
    return { settled: outcome.settled, alreadyPaid: outcome.alreadyPaid };
  }
}
