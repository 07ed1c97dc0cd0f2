import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addUser, type Caller } from '../../../test/hosting.ts';
import { issueInvoice, purchasingTenant } from '../../../test/payments.ts';
import { startFakeStripe, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, type FakeStripe, type StripeRequest } from '../../../test/stripe.ts';
import { StripeGateway } from './stripe-gateway.ts';
import { StripeProvider } from './stripe.ts';

const SECRET_KEY = STRIPE_SECRET_KEY;
const WEBHOOK_SECRET = STRIPE_WEBHOOK_SECRET;

let fake: FakeStripe;
let apiBase: string;
let received: StripeRequest[];
const finishSetup = (id: string, paymentMethod: string) => fake.finishSetup(id, paymentMethod);

let t: TestApp;
let shop: number;
let buyer: { user: { id: number; email: string }; call: Caller };

beforeAll(async () => {
  fake = await startFakeStripe();
  ({ apiBase, received } = fake);
  t = await createTestApp({ env: { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: apiBase } });
  shop = await purchasingTenant(t, 'Shop Hosting', 'shop.test');
  await t.db.updateTable('tenants').set({ public_url: 'https://panel.shop.test' }).where('id', '=', shop).execute();
  buyer = await addUser(t, shop, 'buyer@shop.test');
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** The header Stripe sends: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" with the webhook secret>. */
const sign = (body: string, at: Date, secret = WEBHOOK_SECRET) => {
  const timestamp = Math.floor(at.getTime() / 1000);
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
};

const webhook = (body: string, signature: string | undefined) =>
  t.app.inject({
    method: 'POST',
    url: '/api/payments/stripe/webhook',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      ...(signature ? { 'stripe-signature': signature } : {}),
    },
    payload: body,
  });

const sessionCompleted = (id: string, invoice: { id: number; tenant_id: number }, amount: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id,
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(t.clock.now().getTime() / 1000),
    data: {
      object: {
        id: `cs_${id}`,
        object: 'checkout.session',
        payment_status: 'paid',
        amount_total: amount,
        currency: 'eur',
        payment_intent: `pi_${invoice.id}`,
        metadata: { invoice_id: String(invoice.id), tenant_id: String(invoice.tenant_id) },
        ...extra,
      },
    },
  });

const invoiceStatus = async (id: number) =>
  (await t.db.selectFrom('invoices').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
const paymentsOf = (id: number) =>
  t.db.selectFrom('payments').select(['provider', 'reference', 'amount']).where('invoice_id', '=', id).execute();

describe('cards as payment methods', () => {
  it('offers cards once Stripe is configured', async () => {
    expect(
      (await buyer.call({ method: 'GET', url: '/api/account/payment-methods' })).json<{ available_kinds: string[] }>().available_kinds,
    ).toEqual(['bank_transfer', 'card']);
  });

  it('stores a card by its Stripe id with brand, last4 and expiry read from Stripe', async () => {
    const response = await buyer.call({
      method: 'POST',
      url: '/api/account/payment-methods',
      payload: { kind: 'card', stripe_payment_method_id: 'pm_card_visa' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json<{ data: unknown }>().data).toMatchObject({
      kind: 'card',
      brand: 'visa',
      last4: '4242',
      exp_month: 8,
      exp_year: 2031,
      is_default: true,
    });
    const row = await t.db.selectFrom('payment_methods').selectAll().where('user_id', '=', buyer.user.id).executeTakeFirstOrThrow();
    expect(row.stripe_payment_method_id).toBe('pm_card_visa');
    expect(received.some((r) => r.method === 'GET' && r.path === '/v1/payment_methods/pm_card_visa')).toBe(true);
  });

  it('refuses ids Stripe does not know, or that are not cards', async () => {
    for (const id of ['pm_unknown', 'pm_sepa']) {
      const response = await buyer.call({
        method: 'POST',
        url: '/api/account/payment-methods',
        payload: { kind: 'card', stripe_payment_method_id: id },
      });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json<{ errors: object }>().errors)).toEqual(['stripe_payment_method_id']);
    }
  });
});

describe('adding a card through Stripe Checkout in setup mode', () => {
  let cardShop: number;
  let holder: { user: { id: number; email: string }; call: Caller };
  beforeAll(async () => {
    // A shop of its own, selling in CZK, so the other tests keep their euro shop.
    cardShop = await purchasingTenant(t, 'Card Hosting', 'cards.test');
    await t.db.updateTable('tenants').set({ public_url: 'https://panel.cards.test/' }).where('id', '=', cardShop).execute();
    await t.db.insertInto('shop_settings').values({ tenant_id: cardShop, currency: 'CZK' }).execute();
    holder = await addUser(t, cardShop, 'holder@cards.test');
  });

  const startSetup = async (caller: Caller, host?: string) => {
    const response = await caller({
      method: 'POST',
      url: '/api/account/payment-methods/card-setup',
      ...(host ? { headers: { host } } : {}),
    });
    expect(response.statusCode).toBe(200);
    const url = response.json<{ data: { url: string } }>().data.url;
    const id = /\/(cs_test_\d+)$/.exec(url)?.[1];
    if (!id) throw new Error(`no session id in ${url}`);
    return { url, id, call: received.findLast((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions')! };
  };
  const complete = (caller: Caller, id: string) => caller({ method: 'POST', url: `/api/account/payment-methods/card-setup/${id}` });
  const holderCards = () =>
    t.db
      .selectFrom('payment_methods')
      .select(['stripe_payment_method_id', 'card_brand', 'card_last4', 'card_exp_month', 'card_exp_year', 'is_default'])
      .where('user_id', '=', holder.user.id)
      .orderBy('id')
      .execute();

  it("opens a setup session in the shop's currency that returns to the panel's address the request came to", async () => {
    const { url, id, call } = await startSetup(holder.call, 'cards.test');
    expect(url).toBe(`https://checkout.stripe.test/c/setup/${id}`);
    expect(call.form.get('mode')).toBe('setup');
    expect(call.form.get('allowed_payment_method_types[0]')).toBe('card');
    expect(call.form.get('currency')).toBe('czk');
    expect(call.form.get('client_reference_id')).toBe(String(holder.user.id));
    expect(call.form.get('metadata[user_id]')).toBe(String(holder.user.id));
    expect(call.form.get('metadata[tenant_id]')).toBe(String(cardShop));
    expect(call.form.get('setup_intent_data[metadata][user_id]')).toBe(String(holder.user.id));
    expect(call.form.get('success_url')).toBe('http://cards.test/account/payment-methods?card_setup={CHECKOUT_SESSION_ID}');
    expect(call.form.get('cancel_url')).toBe('http://cards.test/account/payment-methods');
    expect(call.form.has('line_items[0][quantity]')).toBe(false);
    // Nothing is saved until the customer comes back from Stripe.
    expect(await holderCards()).toEqual([]);
  });

  it("is no session on a host that is none of the tenant's hosts", async () => {
    // Sessions are bound to their tenant's hosts, so a card setup cannot start from elsewhere.
    const answer = await holder.call({
      method: 'POST',
      url: '/api/account/payment-methods/card-setup',
      headers: { host: 'elsewhere.test' },
    });
    expect(answer.statusCode).toBe(401);
  });

  it('saves the card of a finished session with brand, last4 and expiry from Stripe, once however often it is sent', async () => {
    const { id } = await startSetup(holder.call, 'cards.test');
    finishSetup(id, 'pm_card_mastercard');
    const first = await complete(holder.call, id);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      data: {
        id: expect.any(Number),
        kind: 'card',
        brand: 'mastercard',
        last4: '4444',
        exp_month: 3,
        exp_year: 2030,
        is_default: true,
        created_at: expect.any(String),
      },
      message: 'Your card has been saved.',
    });
    const lookup = received.findLast((r) => r.method === 'GET' && r.path === `/v1/checkout/sessions/${id}`)!;
    expect(lookup.query.getAll('expand[0]')).toEqual(['setup_intent']);

    const again = await complete(holder.call, id);
    expect(again.statusCode).toBe(200);
    expect(again.json<{ data: { id: number } }>().data.id).toBe(first.json<{ data: { id: number } }>().data.id);
    expect(await holderCards()).toEqual([
      {
        stripe_payment_method_id: 'pm_card_mastercard',
        card_brand: 'mastercard',
        card_last4: '4444',
        card_exp_month: 3,
        card_exp_year: 2030,
        is_default: true,
      },
    ]);
    const listed = (await holder.call({ method: 'GET', url: '/api/account/payment-methods' })).json<{
      data: { kind: string; last4: string }[];
    }>().data;
    expect(listed.map((m) => `${m.kind} ${m.last4}`)).toEqual(['card 4444']);
    expect(
      await t.db
        .selectFrom('audit_log')
        .select('action')
        .where('user_id', '=', holder.user.id)
        .where('action', '=', 'payment_method.added')
        .execute(),
    ).toHaveLength(1);
  });

  it("answers 404 for another user's session, or one Stripe does not know, and saves nothing", async () => {
    const { id } = await startSetup(holder.call, 'cards.test');
    finishSetup(id, 'pm_card_amex');
    const stranger = await addUser(t, cardShop, 'stranger@cards.test');
    const foreign = await complete(stranger.call, id);
    expect(foreign.statusCode).toBe(404);
    expect(await t.db.selectFrom('payment_methods').select('id').where('user_id', '=', stranger.user.id).execute()).toEqual([]);
    expect((await complete(holder.call, 'cs_test_unknown')).statusCode).toBe(404);
    expect(await holderCards()).not.toContainEqual(expect.objectContaining({ stripe_payment_method_id: 'pm_card_amex' }));
    // Not a session id at all: refused before Stripe is asked.
    const malformed = await complete(holder.call, 'pm_card_amex');
    expect(malformed.statusCode).toBe(422);
    expect(Object.keys(malformed.json<{ errors: object }>().errors)).toEqual(['sessionId']);
  });

  it('answers 422 while the session is not finished', async () => {
    const { id } = await startSetup(holder.call, 'cards.test');
    const response = await complete(holder.call, id);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      message: 'The card was not confirmed at the payment provider. Please add it again.',
      errors: { session_id: ['The card was not confirmed at the payment provider. Please add it again.'] },
    });
    expect(await holderCards()).toHaveLength(1);
  });

  it('answers 422 on kind when Stripe is not configured', async () => {
    const plain = await createTestApp();
    try {
      const tenant = await purchasingTenant(plain, 'Plain Hosting', 'plain.test');
      const user = await addUser(plain, tenant, 'user@plain.test');
      for (const url of ['/api/account/payment-methods/card-setup', '/api/account/payment-methods/card-setup/cs_test_1']) {
        const response = await user.call({ method: 'POST', url });
        expect(response.statusCode).toBe(422);
        expect(response.json()).toEqual({
          message: 'Card payments are not available here.',
          errors: { kind: ['Card payments are not available here.'] },
        });
      }
    } finally {
      await plain.close();
    }
  });
});

describe('paying by card', () => {
  it('opens a Checkout Session for the invoice and answers its URL', async () => {
    const invoice = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 2_500, provider: 'stripe' });
    const provider = new StripeProvider({
      gateway: new StripeGateway({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiBase }),
      fallbackUrl: 'http://localhost:3000',
    });
    expect(await provider.enabled()).toBe(true);
    const start = await t.db.transaction().execute((trx) =>
      provider.start(trx, {
        id: invoice.id,
        tenant_id: shop,
        user_id: buyer.user.id,
        number: invoice.number,
        currency: 'EUR',
        total: 2_500,
        payment_reference: invoice.payment_reference,
        kind: 'credit',
      }),
    );
    expect(start.status).toBe('pending');
    expect(start.status === 'pending' && start.instructions).toEqual({
      kind: 'redirect',
      url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_\d+$/),
    });
    const call = received.findLast((r) => r.path === '/v1/checkout/sessions')!;
    expect(call.form.get('mode')).toBe('payment');
    expect(call.form.get('line_items[0][price_data][unit_amount]')).toBe('2500');
    expect(call.form.get('line_items[0][price_data][currency]')).toBe('eur');
    expect(call.form.get('metadata[invoice_id]')).toBe(String(invoice.id));
    expect(call.form.get('payment_intent_data[metadata][tenant_id]')).toBe(String(shop));
    expect(call.form.get('customer_email')).toBe('buyer@shop.test');
    expect(call.form.get('success_url')).toBe(`https://panel.shop.test/account/invoices?invoice=${invoice.id}&payment=success`);
    expect(call.headers['idempotency-key']).toBe(`berth-invoice-${shop}-${invoice.id}`);
  });

  it('answers 503 when Stripe cannot be reached', async () => {
    const invoice = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 100, provider: 'stripe' });
    const provider = new StripeProvider({
      gateway: new StripeGateway({ secretKey: 'sk_wrong', webhookSecret: WEBHOOK_SECRET, apiBase }),
      fallbackUrl: 'http://localhost:3000',
    });
    await expect(
      t.db.transaction().execute((trx) =>
        provider.start(trx, {
          id: invoice.id,
          tenant_id: shop,
          user_id: buyer.user.id,
          number: invoice.number,
          currency: 'EUR',
          total: 100,
          payment_reference: invoice.payment_reference,
          kind: 'credit',
        }),
      ),
    ).rejects.toMatchObject({ status: 503 });
  });
});

describe('the Stripe webhook', () => {
  it('settles the invoice on a signed checkout.session.completed, once per event and per payment', async () => {
    const invoice = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 2_500, provider: 'stripe', kind: 'credit' });
    const body = sessionCompleted('evt_paid_1', invoice, 2_500);
    const response = await webhook(body, sign(body, t.clock.now()));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true });
    expect(await invoiceStatus(invoice.id)).toBe('paid');
    expect(await paymentsOf(invoice.id)).toEqual([{ provider: 'stripe', reference: `pi_${invoice.id}`, amount: 2_500 }]);
    expect(await t.db.selectFrom('credit_ledger').select('amount').where('invoice_id', '=', invoice.id).execute()).toEqual([
      { amount: 2_500 },
    ]);

    // Stripe retries the same event, and also reports the PaymentIntent: nothing is paid twice.
    expect((await webhook(body, sign(body, t.clock.now()))).statusCode).toBe(200);
    const intent = JSON.stringify({
      id: 'evt_pi_1',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: `pi_${invoice.id}`,
          object: 'payment_intent',
          amount_received: 2_500,
          currency: 'eur',
          metadata: { invoice_id: String(invoice.id), tenant_id: String(shop) },
        },
      },
    });
    expect((await webhook(intent, sign(intent, t.clock.now()))).statusCode).toBe(200);
    expect(await paymentsOf(invoice.id)).toHaveLength(1);
    expect(await t.db.selectFrom('credit_ledger').select('amount').where('invoice_id', '=', invoice.id).execute()).toHaveLength(1);
    const events = await t.db.selectFrom('stripe_events').select(['id', 'outcome']).orderBy('id').execute();
    expect(events).toEqual([
      { id: 'evt_paid_1', outcome: 'settled' },
      { id: 'evt_pi_1', outcome: 'already_paid' },
    ]);
    expect(await t.db.selectFrom('audit_log').select('target_id').where('action', '=', 'invoice.paid_by_stripe').execute()).toEqual([
      { target_id: String(invoice.id) },
    ]);
  });

  it('settles on payment_intent.succeeded alone', async () => {
    const invoice = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 990, provider: 'stripe' });
    const body = JSON.stringify({
      id: 'evt_pi_only',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: 'pi_only',
          object: 'payment_intent',
          amount_received: 990,
          currency: 'eur',
          metadata: { invoice_id: String(invoice.id), tenant_id: String(shop) },
        },
      },
    });
    expect((await webhook(body, sign(body, t.clock.now()))).statusCode).toBe(200);
    expect(await invoiceStatus(invoice.id)).toBe('paid');
  });

  it('refuses bad signatures with a bare 400 and pays nothing', async () => {
    const invoice = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 1_000, provider: 'stripe' });
    const body = sessionCompleted('evt_forged', invoice, 1_000);
    const attempts = [
      await webhook(body, sign(body, t.clock.now(), 'whsec_someone_else')),
      await webhook(body, undefined),
      await webhook(body, 'garbage'),
      await webhook(body.replace('"amount_total":1000', '"amount_total":1'), sign(body, t.clock.now())),
      // Signed, but six minutes old or six minutes ahead: outside the five-minute tolerance.
      await webhook(body, sign(body, new Date(t.clock.now().getTime() - 6 * 60_000))),
      await webhook(body, sign(body, new Date(t.clock.now().getTime() + 6 * 60_000))),
    ];
    for (const response of attempts) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'The request could not be read.' });
    }
    expect(await invoiceStatus(invoice.id)).toBe('unpaid');
    expect(await t.db.selectFrom('stripe_events').select('id').where('id', '=', 'evt_forged').execute()).toEqual([]);

    // Four minutes old is still within the tolerance.
    const late = await webhook(body, sign(body, new Date(t.clock.now().getTime() - 4 * 60_000)));
    expect(late.statusCode).toBe(200);
    expect(await invoiceStatus(invoice.id)).toBe('paid');
  });

  it('does not settle a payment of another amount, or of an invoice of another tenant', async () => {
    const invoice = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 4_000, provider: 'stripe' });
    const short = sessionCompleted('evt_short', invoice, 3_999);
    expect((await webhook(short, sign(short, t.clock.now()))).statusCode).toBe(200);
    const foreign = sessionCompleted('evt_foreign', { id: invoice.id, tenant_id: 1 }, 4_000);
    expect((await webhook(foreign, sign(foreign, t.clock.now()))).statusCode).toBe(200);
    const huge = sessionCompleted('evt_huge', { id: 99_999_999_999, tenant_id: shop }, 4_000);
    expect((await webhook(huge, sign(huge, t.clock.now()))).statusCode).toBe(200);
    const pending = sessionCompleted('evt_pending', invoice, 4_000, { payment_status: 'unpaid' });
    expect((await webhook(pending, sign(pending, t.clock.now()))).statusCode).toBe(200);
    expect(await invoiceStatus(invoice.id)).toBe('unpaid');
    const outcomes = await t.db
      .selectFrom('stripe_events')
      .select(['id', 'outcome'])
      .where('id', 'in', ['evt_short', 'evt_foreign', 'evt_huge', 'evt_pending'])
      .orderBy('id')
      .execute();
    expect(outcomes).toEqual([
      { id: 'evt_foreign', outcome: 'unknown_invoice' },
      { id: 'evt_huge', outcome: 'unknown_invoice' },
      { id: 'evt_pending', outcome: 'ignored' },
      { id: 'evt_short', outcome: 'amount_mismatch' },
    ]);
  });

  it('ignores event types it does not handle', async () => {
    const body = JSON.stringify({
      id: 'evt_other',
      object: 'event',
      type: 'customer.created',
      data: { object: { id: 'cus_1', object: 'customer' } },
    });
    expect((await webhook(body, sign(body, t.clock.now()))).statusCode).toBe(200);
  });
});

describe('a top-up by card, end to end', () => {
  it('redirects to Stripe Checkout, and the credit arrives with the signed webhook', async () => {
    const topUp = await buyer.call({ method: 'POST', url: '/api/credit/top-up', payload: { amount: 3_000, payment: 'stripe' } });
    expect(topUp.statusCode).toBe(201);
    const invoice = topUp.json<{ data: { invoice: { id: number; status: string; instructions: { kind: string; url: string } } } }>().data
      .invoice;
    expect(invoice.instructions).toEqual({ kind: 'redirect', url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\//) });
    const balance = async () =>
      (await buyer.call({ method: 'GET', url: '/api/credit' })).json<{ data: { balance: { amount: number } } }>().data.balance.amount;
    const before = await balance();
    const body = sessionCompleted('evt_top_up', { id: invoice.id, tenant_id: shop }, 3_000);
    expect((await webhook(body, sign(body, t.clock.now()))).statusCode).toBe(200);
    expect(await balance()).toBe(before + 3_000);
  });
});

describe('the OpenAPI document', () => {
  it('lists every payment route', async () => {
    const response = await t.app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/account/payment-methods',
        '/api/account/payment-methods/{id}/default',
        '/api/account/payment-methods/card-setup',
        '/api/account/payment-methods/card-setup/{sessionId}',
        '/api/account/payment-methods/{id}',
        '/api/account/invoices/{id}/pdf',
        '/api/system/invoices/{id}/pdf',
        '/api/system/tenants/{id}/bank-account',
        '/api/system/invoices/{id}/mark-paid',
        '/api/system/payments/bank-statement',
        '/api/payments/stripe/webhook',
      ]),
    );
  });
});
