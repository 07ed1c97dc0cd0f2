import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import type { InvoiceSettlement } from './provider.ts';
import { findCardCharge, findChargeableCard, findInvoice, recordCardCharge } from './queries.ts';
import type { StripeGateway } from './stripe-gateway.ts';

export type CardChargeOutcome =
  | { outcome: 'paid' }
  /** Declined or refused by Stripe: its words, to tell the owner. */
  | { outcome: 'failed'; problem: string }
  /** No card to charge (none saved, not the default, Stripe not configured) or the invoice is no longer unpaid. */
  | { outcome: 'none' };

/**
 * Renewals charged to the owner's default saved card with the owner away (modules/billing): an
 * off-session PaymentIntent on the user's Stripe Customer. One attempt per invoice and dunning step
 * (`step` 0 when the renewal is issued, then 1, 3 and 7 days later): the idempotency key names
 * both, so a pass that runs twice or crashes half-way charges once, and the attempt is kept in
 * `card_charges` with Stripe's answer.
 */
export class SavedCardCharges {
  private readonly deps: { db: Db; clock: Clock; gateway: StripeGateway | null; settlement: InvoiceSettlement };

  constructor(deps: SavedCardCharges['deps']) {
    this.deps = deps;
  }

  /** Whether the user has a card Berth can charge without them. */
  async chargeable(userId: number): Promise<boolean> {
    return this.deps.gateway !== null && (await findChargeableCard(this.deps.db, userId)) !== undefined;
  }

  async charge(invoiceId: number, step: number): Promise<CardChargeOutcome> {
    const { db, gateway } = this.deps;
    if (!gateway) return { outcome: 'none' };
    const done = await findCardCharge(db, invoiceId, step);
    if (done?.status === 'succeeded') return { outcome: 'paid' };
    if (done?.status === 'failed') return { outcome: 'failed', problem: done.problem ?? '' };
    const invoice = await findInvoice(db, invoiceId);
    if (!invoice || invoice.status !== 'unpaid' || invoice.kind !== 'order') return { outcome: 'none' };
    const card = await findChargeableCard(db, invoice.user_id);
    if (!card?.stripe_payment_method_id || !card.stripe_customer_id) return { outcome: 'none' };
    const attempt = { invoice_id: invoiceId, step, payment_method_id: card.id, created_at: this.deps.clock.now() };
    await recordCardCharge(db, { ...attempt, status: 'pending', reference: null, problem: null });
    const result = await gateway.chargeOffSession({
      customerId: card.stripe_customer_id,
      paymentMethodId: card.stripe_payment_method_id,
      amount: Number(invoice.gross),
      currency: invoice.currency,
      invoiceId,
      tenantId: invoice.tenant_id,
      number: invoice.number,
      reference: invoice.payment_reference,
      idempotencyKey: `berth-renewal-${invoice.tenant_id}-${invoiceId}-${step}`,
    });
    if (result.status === 'failed') {
      await recordCardCharge(db, { ...attempt, status: 'failed', reference: result.id, problem: result.problem });
      return { outcome: 'failed', problem: result.problem };
    }
    // Settled once: the payment_intent.succeeded webhook for the same PaymentIntent finds it paid.
    await this.deps.settlement.settle({
      tenantId: invoice.tenant_id,
      invoiceId,
      provider: 'stripe',
      reference: result.id,
      amount: Number(invoice.gross),
      actorId: null,
    });
    await recordCardCharge(db, { ...attempt, status: 'succeeded', reference: result.id, problem: null });
    return { outcome: 'paid' };
  }
}
