import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainExpiringIn as expiringDomain } from '../../../test/billing.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { mailsTo } from '../../../test/outbox.ts';
import { ledgerConsistent, ok, shopTenant, balance } from '../../../test/shop.ts';
import { startFakeStripe, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, type FakeStripe } from '../../../test/stripe.ts';
import { JobQueue } from '../jobs/queue.ts';

/*
 * Renewals charged to the owner's saved card with the owner away (issue: auto-renewal "from credit
 * or the saved payment method"): against a stand-in for Stripe's API on loopback that keeps the
 * PaymentIntents it was asked for, with Stripe's test cards (one that is declined when charged).
 */
const DAY = 24 * 60 * 60 * 1000;
let t: TestApp;
let stripe: FakeStripe;
let shop: Awaited<ReturnType<typeof shopTenant>>;

beforeAll(async () => {
  stripe = await startFakeStripe();
  t = await createTestApp({
    env: { STRIPE_SECRET_KEY: STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE: stripe.apiBase },
  });
  shop = await shopTenant(t, 'harbor', { customers: 3, hostPurchases: true });
  // The shop's prices (.com renews at 14.90 net, 18.03 with 21 % VAT) exist once the shop is read.
  await ok(shop.customer.call, { method: 'GET', url: '/api/shop/domain-check?name=probe.com' });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const domainExpiringIn = (ownerId: number, name: string, days: number) => expiringDomain(t, shop.admin.call, ownerId, name, days);
const saveCard = (owner: (typeof shop.customers)[number], paymentMethod: string) =>
  ok(
    owner.call,
    {
      method: 'POST',
      url: '/api/account/payment-methods',
      payload: { kind: 'card', stripe_payment_method_id: paymentMethod, make_default: true },
    },
    201,
  );
const expiryOf = async (id: number) =>
  new Date((await t.db.selectFrom('domains').select('expire_at').where('id', '=', id).executeTakeFirstOrThrow()).expire_at as Date);
const invoicesOf = (userId: number) =>
  t.db.selectFrom('invoices').select(['id', 'status', 'gross', 'number']).where('user_id', '=', userId).orderBy('id').execute();
const subjects = async (email: string) => (await mailsTo(t.db, email)).map((mail) => mail.subject);
const pass = async () => {
  const done = await t.services.billing.runOnce();
  await JobQueue.idleAll();
  return done;
};

describe('renewals charged to a saved card', () => {
  it('saves a card on the user’s own Stripe Customer', async () => {
    const owner = shop.customers[0]!;
    const card = await saveCard(owner, 'pm_card_visa');
    expect(card.data).toMatchObject({ kind: 'card', last4: '4242', is_default: true });
    const customer = await t.db
      .selectFrom('stripe_customers')
      .select('customer_id')
      .where('user_id', '=', owner.user.id)
      .executeTakeFirstOrThrow();
    expect(stripe.customers.get(customer.customer_id)).toBe(owner.user.email);
    const row = await t.db
      .selectFrom('payment_methods')
      .select('stripe_customer_id')
      .where('user_id', '=', owner.user.id)
      .executeTakeFirstOrThrow();
    expect(row.stripe_customer_id).toBe(customer.customer_id);
    expect(
      stripe.received.some((r) => r.path === '/v1/payment_methods/pm_card_visa/attach' && r.form.get('customer') === customer.customer_id),
    ).toBe(true);
    // Another user cannot claim the same card: it belongs to the first one's Customer.
    const other = await shop.customers[1]!.call({
      method: 'POST',
      url: '/api/account/payment-methods',
      payload: { kind: 'card', stripe_payment_method_id: 'pm_card_visa' },
    });
    expect(other.statusCode).toBe(422);
    expect(Object.keys(other.json().errors)).toEqual(['stripe_payment_method_id']);
  });

  it('charges the card once when the credit does not cover the renewal, however many passes race', async () => {
    const owner = shop.customers[0]!;
    const id = await domainExpiringIn(owner.user.id, 'carded.com', 10);
    const before = await expiryOf(id);
    await Promise.all([t.services.billing.runOnce(), t.services.billing.runOnce(), t.services.billing.runOnce()]);
    await JobQueue.idleAll();

    const charges = stripe.intents.filter((intent) => intent.customer && intent.status === 'succeeded');
    expect(charges).toHaveLength(1);
    const [invoice] = await invoicesOf(owner.user.id);
    expect(invoice).toMatchObject({ status: 'paid' });
    expect(charges[0]).toMatchObject({
      amount: 1803,
      currency: 'eur',
      payment_method: 'pm_card_visa',
      metadata: { invoice_id: String(invoice!.id) },
    });
    // Off-session and confirmed, under a key naming the invoice: a repeat would be Stripe's replay.
    const sent = stripe.received.filter((r) => r.path === '/v1/payment_intents');
    expect(sent.every((r) => r.form.get('off_session') === 'true' && r.form.get('confirm') === 'true')).toBe(true);
    expect(new Set(sent.map((r) => r.headers['idempotency-key']))).toEqual(new Set([`berth-renewal-${shop.tenantId}-${invoice!.id}-0`]));
    const payment = await t.db
      .selectFrom('payments')
      .select(['provider', 'reference', 'amount'])
      .where('invoice_id', '=', invoice!.id)
      .execute();
    expect(payment).toEqual([{ provider: 'stripe', reference: charges[0]!.id, amount: 1803 }]);
    expect((await expiryOf(id)).getUTCFullYear()).toBe(before.getUTCFullYear() + 1);
    expect(await balance(owner.call)).toBe(0);
    await ledgerConsistent(t, owner.user.id);
    expect(await subjects(owner.user.email)).toContain('carded.com at harbor Hosting was renewed');
    const notices = await t.db.selectFrom('notifications').select('text').where('user_id', '=', owner.user.id).execute();
    expect(notices.map((n) => n.text)).toContain(
      `carded.com was renewed automatically and charged to your saved card (invoice ${invoice!.number}, €18.03).`,
    );
    expect((await pass()).renewals).toBe(0);
  });

  it('tells the owner when the card is declined, tries again with the dunning steps, and is paid by the next card', async () => {
    const owner = shop.customers[1]!;
    await saveCard(owner, 'pm_card_chargeDeclined');
    const id = await domainExpiringIn(owner.user.id, 'declined.com', 10);
    const before = await expiryOf(id);
    await Promise.all([pass(), pass()]);
    const [invoice] = await invoicesOf(owner.user.id);
    expect(invoice).toMatchObject({ status: 'unpaid' });
    const attempts = await t.db
      .selectFrom('card_charges')
      .select(['step', 'status', 'problem'])
      .where('invoice_id', '=', invoice!.id)
      .execute();
    expect(attempts).toEqual([{ step: 0, status: 'failed', problem: 'Your card was declined.' }]);
    expect(await subjects(owner.user.email)).toEqual(['Your card was declined for the renewal of declined.com at harbor Hosting']);

    // A day later: the first dunning step charges the card again (declined again) and reminds once.
    t.clock.advance(DAY + 60_000);
    await Promise.all([pass(), pass()]);
    const steps = await t.db
      .selectFrom('card_charges')
      .select(['step', 'status'])
      .where('invoice_id', '=', invoice!.id)
      .orderBy('step')
      .execute();
    expect(steps).toEqual([
      { step: 0, status: 'failed' },
      { step: 1, status: 'failed' },
    ]);
    expect((await subjects(owner.user.email)).filter((subject) => subject.startsWith('Reminder'))).toHaveLength(1);

    // The owner saves a card that works; the step on day 3 pays with it and reminds no more.
    await saveCard(owner, 'pm_card_mastercard');
    t.clock.advance(2 * DAY);
    await pass();
    expect((await invoicesOf(owner.user.id))[0]).toMatchObject({ status: 'paid' });
    expect((await expiryOf(id)).getUTCFullYear()).toBe(before.getUTCFullYear() + 1);
    expect((await subjects(owner.user.email)).filter((subject) => subject.startsWith('Reminder'))).toHaveLength(1);
    expect(stripe.intents.filter((intent) => intent.payment_method === 'pm_card_mastercard' && intent.status === 'succeeded')).toHaveLength(
      1,
    );
  });

  it('leaves an owner without a saved card to the invoice, as before', async () => {
    const owner = shop.customers[2]!;
    await domainExpiringIn(owner.user.id, 'nocard.com', 10);
    const intentsBefore = stripe.intents.length;
    await pass();
    expect((await invoicesOf(owner.user.id))[0]).toMatchObject({ status: 'unpaid' });
    expect(stripe.intents.length).toBe(intentsBefore);
    expect(await subjects(owner.user.email)).toEqual(['Please pay the renewal of nocard.com at harbor Hosting']);
  });
});
