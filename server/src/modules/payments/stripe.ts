import type Stripe from 'stripe';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuditService } from '../audit/service.ts';
import { publicBaseUrl } from '../tenants/links.ts';
import { findTenantById } from '../tenants/queries.ts';
import { findUserById } from '../users/queries.ts';
import type { InvoiceSettlement, InvoiceToPay, PaymentProvider, PaymentStart } from './provider.ts';
import { findInvoice, findStripeEvent, recordStripeEvent } from './queries.ts';
import type { StripeGateway } from './stripe-gateway.ts';

/** Where the browser lands after Stripe Checkout (the web app's invoice list shows the outcome). */
export const checkoutReturnUrls = (baseUrl: string, invoiceId: number) => ({
  successUrl: `${baseUrl}/account/invoices?invoice=${invoiceId}&payment=success`,
  cancelUrl: `${baseUrl}/account/invoices?invoice=${invoiceId}&payment=cancelled`,
});

/**
 * Cards through Stripe Checkout: offered when the Stripe keys are configured. start() opens a
 * Checkout Session for the invoice and answers its URL; the webhook settles the invoice.
 */
export class StripeProvider implements PaymentProvider {
  readonly id = 'stripe' as const;
  private readonly deps: { gateway: StripeGateway | null; fallbackUrl: string };

  constructor(deps: StripeProvider['deps']) {
    this.deps = deps;
  }

  async enabled(): Promise<boolean> {
    return this.deps.gateway !== null;
  }

  async start(trx: Db, invoice: InvoiceToPay): Promise<PaymentStart> {
    const gateway = this.deps.gateway;
    if (!gateway) throw new HttpError(422, 'payments.card_unavailable', { fields: { payment: [{ key: 'payments.card_unavailable' }] } });
    const [tenant, buyer] = await Promise.all([findTenantById(trx, invoice.tenant_id), findUserById(trx, invoice.user_id)]);
    const baseUrl = publicBaseUrl(tenant, this.deps.fallbackUrl);
    const session = await gateway
      .createCheckoutSession({
        invoiceId: invoice.id,
        tenantId: invoice.tenant_id,
        number: invoice.number,
        amount: invoice.total,
        currency: invoice.currency,
        reference: invoice.payment_reference,
        customerEmail: buyer?.email ?? null,
        ...checkoutReturnUrls(baseUrl, invoice.id),
      })
      .catch(() => {
        throw new HttpError(503, 'payments.gateway_unavailable');
      });
    return { status: 'pending', instructions: { kind: 'redirect', url: session.url } };
  }
}

/** What Stripe told us about a payment, from either event that reports it. */
interface PaymentReport {
  invoiceId: number;
  tenantId: number;
  amount: number;
  currency: string;
  /** The PaymentIntent id when known (both events of one payment share it), else the session id. */
  reference: string;
}

/** Metadata is text from outside: only a positive int4 can be one of our ids (and reach SQL). */
const isRowId = (value: number): boolean => Number.isInteger(value) && value > 0 && value <= 2_147_483_647;

function paymentReport(event: Stripe.Event): PaymentReport | null | 'ignored' {
  let metadata: Stripe.Metadata | null;
  let amount: number | null;
  let currency: string | null;
  let reference: string;
  if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded') {
    const session = event.data.object;
    // A delayed payment method completes the session before the money arrives.
    if (session.payment_status !== 'paid') return 'ignored';
    metadata = session.metadata;
    amount = session.amount_total;
    currency = session.currency;
    const intent = session.payment_intent;
    reference = typeof intent === 'string' ? intent : (intent?.id ?? session.id);
  } else if (event.type === 'payment_intent.succeeded') {
    const intent = event.data.object;
    metadata = intent.metadata;
    amount = intent.amount_received;
    currency = intent.currency;
    reference = intent.id;
  } else {
    return 'ignored';
  }
  const invoiceId = Number(metadata?.invoice_id);
  const tenantId = Number(metadata?.tenant_id);
  if (!isRowId(invoiceId) || !isRowId(tenantId) || amount === null || !currency) return null;
  return { invoiceId, tenantId, amount, currency: currency.toUpperCase(), reference };
}

export type WebhookOutcome = 'settled' | 'already_paid' | 'duplicate' | 'ignored' | 'unknown_invoice' | 'amount_mismatch';

/**
 * Stripe's events, verified by signature: a paid Checkout Session or PaymentIntent settles its
 * invoice. Each event id is handled once; a payment reported by two events is settled once, by
 * its PaymentIntent id.
 */
export class StripeWebhooks {
  private readonly deps: {
    db: Db;
    clock: Clock;
    gateway: StripeGateway;
    settlement: InvoiceSettlement;
    audit: AuditService;
    log: FastifyBaseLogger;
  };

  constructor(deps: StripeWebhooks['deps']) {
    this.deps = deps;
  }

  /** Throws StripeSignatureError on a bad signature; anything else is answered 200 so Stripe stops retrying. */
  async handle(rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
    const now = this.deps.clock.now();
    const event = this.deps.gateway.verifyEvent(rawBody, signature, now);
    if (await findStripeEvent(this.deps.db, event.id)) return 'duplicate';
    const report = paymentReport(event);
    const outcome = report === 'ignored' ? 'ignored' : await this.settle(event, report);
    await recordStripeEvent(this.deps.db, {
      id: event.id,
      type: event.type,
      tenant_id: report && report !== 'ignored' && outcome !== 'unknown_invoice' ? report.tenantId : null,
      invoice_id: report && report !== 'ignored' && outcome !== 'unknown_invoice' ? report.invoiceId : null,
      outcome,
      received_at: now,
    });
    return outcome;
  }

  private async settle(event: Stripe.Event, report: PaymentReport | null): Promise<WebhookOutcome> {
    const invoice = report ? await findInvoice(this.deps.db, report.invoiceId) : undefined;
    if (!report || !invoice || invoice.tenant_id !== report.tenantId) {
      this.deps.log.warn({ stripeEvent: event.id, type: event.type }, 'stripe event names no invoice of ours');
      return 'unknown_invoice';
    }
    if (report.amount !== invoice.gross || report.currency !== invoice.currency.toUpperCase()) {
      this.deps.log.warn(
        { stripeEvent: event.id, invoice: invoice.id, amount: report.amount, expected: invoice.gross },
        'stripe payment amount differs from the invoice',
      );
      return 'amount_mismatch';
    }
    const result = await this.deps.settlement.settle({
      tenantId: invoice.tenant_id,
      invoiceId: invoice.id,
      provider: 'stripe',
      reference: report.reference,
      amount: report.amount,
      actorId: null,
    });
    if (!result.settled) return 'already_paid';
    await this.deps.audit.record({
      action: 'invoice.paid_by_stripe',
      tenantId: invoice.tenant_id,
      userId: null,
      ip: null,
      target: { type: 'invoice', id: invoice.id },
      data: { number: invoice.number, stripe_event: event.id, reference: report.reference, amount: report.amount },
    });
    return 'settled';
  }
}
