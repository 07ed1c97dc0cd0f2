import Stripe from 'stripe';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Where the Stripe API answers (https://api.stripe.com; a local server in tests). */
  apiBase: string;
}

/** Stripe's tolerance for a signed webhook's timestamp: older (or newer) deliveries are refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface CardDetails {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
}

export class StripeSignatureError extends Error {}

/** The few calls Berth makes to Stripe, through the official client pointed at `apiBase`. */
export class StripeGateway {
  private readonly client: Stripe;
  private readonly webhookSecret: string;

  constructor(settings: StripeSettings) {
    const base = new URL(settings.apiBase);
    this.client = new Stripe(settings.secretKey, {
      host: base.hostname,
      port: base.port || (base.protocol === 'http:' ? 80 : 443),
      protocol: base.protocol === 'http:' ? 'http' : 'https',
      // A checkout waits on this call: fail fast rather than hold the transaction.
      timeout: 20_000,
      maxNetworkRetries: 1,
      telemetry: false,
    });
    this.webhookSecret = settings.webhookSecret;
  }

  /** A hosted Checkout page for one invoice; repeated calls for the same invoice get the same session. */
  async createCheckoutSession(input: {
    invoiceId: number;
    tenantId: number;
    number: string;
    amount: number;
    currency: string;
    reference: string;
    successUrl: string;
    cancelUrl: string;
    customerEmail: string | null;
  }): Promise<{ id: string; url: string }> {
    const metadata = { invoice_id: String(input.invoiceId), tenant_id: String(input.tenantId), payment_reference: input.reference };
    const session = await this.client.checkout.sessions.create(
      {
        mode: 'payment',
        client_reference_id: String(input.invoiceId),
        line_items: [{ quantity: 1, price_data: { currency: input.currency.toLowerCase(), unit_amount: input.amount, product_data: { name: `Invoice ${input.number}` } } }],
        metadata,
        payment_intent_data: { metadata },
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        ...(input.customerEmail ? { customer_email: input.customerEmail } : {}),
      },
      { idempotencyKey: `berth-invoice-${input.tenantId}-${input.invoiceId}` },
    );
    if (!session.url) throw new Error('Stripe answered a Checkout Session without a URL');
    return { id: session.id, url: session.url };
  }

  /** A card PaymentMethod's identifying details, or null when it is not a card Stripe knows. */
  async retrieveCard(paymentMethodId: string): Promise<CardDetails | null> {
    try {
      const method = await this.client.paymentMethods.retrieve(paymentMethodId);
      if (method.type !== 'card' || !method.card) return null;
      return { brand: method.card.brand, last4: method.card.last4, exp_month: method.card.exp_month, exp_year: method.card.exp_year };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return null;
      throw error;
    }
  }

  /**
   * Checks the `Stripe-Signature` header (HMAC-SHA256 of `${t}.${body}` with the webhook secret,
   * constant-time, timestamp within 5 minutes of `now`) and parses the event.
   */
  verifyEvent(rawBody: Buffer, signature: string | undefined, now: Date): Stripe.Event {
    if (!signature) throw new StripeSignatureError('missing signature');
    // Stripe's check refuses old timestamps only; one from the future is refused here too.
    const timestamp = Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1]);
    if (timestamp * 1000 > now.getTime() + WEBHOOK_TOLERANCE_SECONDS * 1000) throw new StripeSignatureError('timestamp in the future');
    try {
      return this.client.webhooks.constructEvent(rawBody, signature, this.webhookSecret, WEBHOOK_TOLERANCE_SECONDS, undefined, now.getTime());
    } catch (error) {
      throw new StripeSignatureError(error instanceof Error ? error.message : 'bad signature');
    }
  }
}
