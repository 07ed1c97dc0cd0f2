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

/** A Checkout Session in setup mode, as far as saving its card needs it. */
export interface CardSetupSession {
  id: string;
  /** From the metadata Berth set when it opened the session (text from Stripe: compare, never trust). */
  userId: string | null;
  tenantId: string | null;
  /** The customer finished the page and Stripe confirmed the SetupIntent. */
  complete: boolean;
  /** The card's PaymentMethod id (`pm_...`) once the SetupIntent has one. */
  paymentMethodId: string | null;
  /** The Customer the session saved the card for. */
  customerId: string | null;
}

/** What charging a saved card with the customer away came to. */
export type OffSessionCharge =
  | { status: 'succeeded'; id: string }
  /** The card was declined or needs the customer (authentication): Stripe's words, for the owner. */
  | { status: 'failed'; id: string | null; problem: string };

/** Marks Berth's card setup sessions in their metadata (invoice sessions carry `invoice_id`). */
export const CARD_SETUP_PURPOSE = 'card_setup';

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
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: input.currency.toLowerCase(),
              unit_amount: input.amount,
              product_data: { name: `Invoice ${input.number}` },
            },
          },
        ],
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

  /**
   * A hosted Checkout page in setup mode: the customer enters a card at Stripe, which keeps it as
   * a PaymentMethod; nothing is charged. Each call opens a new session.
   */
  async createCardSetupSession(input: {
    userId: number;
    tenantId: number;
    customerId: string;
    currency: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ id: string; url: string }> {
    const metadata = { purpose: CARD_SETUP_PURPOSE, user_id: String(input.userId), tenant_id: String(input.tenantId) };
    const session = await this.client.checkout.sessions.create({
      mode: 'setup',
      // This client's API version (2026-10-28) names the list of accepted kinds allowed_payment_method_types.
      allowed_payment_method_types: ['card'],
      currency: input.currency.toLowerCase(),
      client_reference_id: String(input.userId),
      // The card is saved for the user's Customer: only so can it be charged later, the customer away.
      customer: input.customerId,
      metadata,
      setup_intent_data: { metadata },
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    });
    if (!session.url) throw new Error('Stripe answered a Checkout Session without a URL');
    return { id: session.id, url: session.url };
  }

  /** A setup-mode Checkout Session with its SetupIntent, or null when Stripe knows no such setup session. */
  async retrieveCardSetupSession(sessionId: string): Promise<CardSetupSession | null> {
    let session: Stripe.Checkout.Session;
    try {
      session = await this.client.checkout.sessions.retrieve(sessionId, { expand: ['setup_intent'] });
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return null;
      throw error;
    }
    if (session.mode !== 'setup') return null;
    const intent = typeof session.setup_intent === 'object' ? session.setup_intent : null;
    const method = intent?.payment_method ?? null;
    return {
      id: session.id,
      userId: session.metadata?.user_id ?? null,
      tenantId: session.metadata?.tenant_id ?? null,
      complete: session.status === 'complete' && intent?.status === 'succeeded',
      paymentMethodId: typeof method === 'string' ? method : (method?.id ?? null),
      customerId: typeof session.customer === 'string' ? session.customer : (session.customer?.id ?? null),
    };
  }

  /** A Customer for a user: once per user, whatever the retries (the idempotency key names the user). */
  async createCustomer(input: { userId: number; tenantId: number; email: string }): Promise<string> {
    const customer = await this.client.customers.create(
      { email: input.email, metadata: { user_id: String(input.userId), tenant_id: String(input.tenantId) } },
      { idempotencyKey: `berth-customer-${input.tenantId}-${input.userId}` },
    );
    return customer.id;
  }

  /** Attaches a card to a Customer (a card saved by its id rather than through the setup page). */
  async attachCard(paymentMethodId: string, customerId: string): Promise<void> {
    await this.client.paymentMethods.attach(paymentMethodId, { customer: customerId });
  }

  /**
   * Charges a saved card with the customer away (a renewal). The idempotency key names the invoice
   * and the attempt: a job run twice charges once. A decline is an answer, not an error; Stripe
   * unreachable throws (the job is retried).
   */
  async chargeOffSession(input: {
    customerId: string;
    paymentMethodId: string;
    amount: number;
    currency: string;
    invoiceId: number;
    tenantId: number;
    number: string;
    reference: string;
    idempotencyKey: string;
  }): Promise<OffSessionCharge> {
    try {
      const intent = await this.client.paymentIntents.create(
        {
          amount: input.amount,
          currency: input.currency.toLowerCase(),
          customer: input.customerId,
          payment_method: input.paymentMethodId,
          off_session: true,
          confirm: true,
          description: `Invoice ${input.number}`,
          // The same metadata as a Checkout payment: the payment_intent.succeeded webhook settles it too, once.
          metadata: { invoice_id: String(input.invoiceId), tenant_id: String(input.tenantId), payment_reference: input.reference },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (intent.status === 'succeeded') return { status: 'succeeded', id: intent.id };
      return { status: 'failed', id: intent.id, problem: `The payment is ${intent.status.replaceAll('_', ' ')}.` };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError)
        return { status: 'failed', id: error.payment_intent?.id ?? null, problem: error.message };
      // A card that Stripe will not charge off-session (detached, not the customer's) is a failure too.
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return { status: 'failed', id: null, problem: error.message };
      throw error;
    }
  }

  /** A card PaymentMethod's identifying details, or null when it is not a card Stripe knows. */
  async retrieveCard(paymentMethodId: string): Promise<(CardDetails & { customerId: string | null }) | null> {
    try {
      const method = await this.client.paymentMethods.retrieve(paymentMethodId);
      if (method.type !== 'card' || !method.card) return null;
      const customer = method.customer;
      return {
        brand: method.card.brand,
        last4: method.card.last4,
        exp_month: method.card.exp_month,
        exp_year: method.card.exp_year,
        customerId: typeof customer === 'string' ? customer : (customer?.id ?? null),
      };
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
      return this.client.webhooks.constructEvent(
        rawBody,
        signature,
        this.webhookSecret,
        WEBHOOK_TOLERANCE_SECONDS,
        undefined,
        now.getTime(),
      );
    } catch (error) {
      throw new StripeSignatureError(error instanceof Error ? error.message : 'bad signature');
    }
  }
}
