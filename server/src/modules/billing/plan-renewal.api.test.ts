import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { callerFor, type Caller } from '../../../test/hosting.ts';
import { mailsTo } from '../../../test/outbox.ts';
import { addToCart, balance, checkout, giveCredit, ledgerConsistent, ok, shopTenant } from '../../../test/shop.ts';
import { JobQueue } from '../jobs/queue.ts';
import { addMonths } from '../shop/money.ts';

const DAY = 24 * 60 * 60 * 1000;
/** Starter (default catalogue): 39.00 a year and 3.90 a month net, with 21 % VAT. */
const YEARLY_GROSS = 4_719;
const MONTHLY_GROSS = 472;
let t: TestApp;
let shop: Awaited<ReturnType<typeof shopTenant>>;
let starter: number;
let t0: Date;
type Customer = (typeof shop.customers)[number];

beforeAll(async () => {
  t = await createTestApp();
  shop = await shopTenant(t, 'harbor', { customers: 5 });
  const products = await ok(shop.customer.call, { method: 'GET', url: '/api/shop/products' });
  starter = products.data.plans.find((plan: { title: string }) => plan.title === 'Starter').id;
  t0 = t.clock.now();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** A plan bought from the credit now; answers the subscription's id. */
async function buyStarter(customer: Customer, months: 1 | 12, credit: number): Promise<number> {
  await giveCredit(shop.admin.call, customer.user.id, credit);
  const bought = await ok(
    customer.call,
    {
      method: 'POST',
      url: '/api/shop/checkout',
      payload: {
        payment: 'credit',
        idempotency_key: `buy-plan-${customer.user.id}`,
        item: { kind: 'hosting', plan_id: starter, period_months: months },
      },
    },
    201,
  );
  expect(bought.data.status).toBe('paid');
  const row = await t.db.selectFrom('hosting_subscriptions').select('id').where('user_id', '=', customer.user.id).executeTakeFirstOrThrow();
  return row.id;
}

const subscriptionsOf = (userId: number) =>
  t.db.selectFrom('hosting_subscriptions').select(['id', 'expires_at', 'auto_renew']).where('user_id', '=', userId).execute();
const ordersOf = (userId: number) =>
  t.db.selectFrom('orders').select(['id', 'status', 'idempotency_key']).where('user_id', '=', userId).orderBy('id').execute();
const pass = async () => {
  const done = await t.services.billing.runOnce();
  await JobQueue.idleAll();
  return done;
};
/** A new session: the clock's jumps outlast the one logged in at the start. */
const fresh = (customer: Customer) => callerFor(t, customer.user);
const subjects = async (email: string) => (await mailsTo(t.db, email)).map((mail) => mail.subject);

describe('hosting plans renew like domains', () => {
  const ids: Record<string, number> = {};

  it('are bought with automatic renewal on, which the owner (and only they) can switch off', async () => {
    ids.yearly = await buyStarter(shop.customers[0]!, 12, 20_000);
    ids.monthly = await buyStarter(shop.customers[1]!, 1, MONTHLY_GROSS);
    ids.manual = await buyStarter(shop.customers[2]!, 12, YEARLY_GROSS);
    ids.byHand = await buyStarter(shop.customers[3]!, 12, 2 * YEARLY_GROSS);
    const owner = shop.customers[2]!;
    const listed = await ok(owner.call, { method: 'GET', url: '/api/shop/subscriptions' });
    expect(listed.data).toMatchObject([{ id: ids.manual, title: 'Hosting Starter', active: true, auto_renew: true }]);

    const off = await ok(owner.call, { method: 'PATCH', url: `/api/shop/subscriptions/${ids.manual}`, payload: { auto_renew: false } });
    expect(off.data).toMatchObject({ id: ids.manual, auto_renew: false });
    expect(off.message).toBe(
      `Hosting Starter ends on ${new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(addMonths(t0, 12))} unless you renew it.`,
    );
    // Someone else's plan is not found; a wrong body is refused on its field.
    const stranger = await shop.customers[4]!.call({
      method: 'PATCH',
      url: `/api/shop/subscriptions/${ids.manual}`,
      payload: { auto_renew: true },
    });
    expect(stranger.statusCode).toBe(404);
    const bad = await owner.call({ method: 'PATCH', url: `/api/shop/subscriptions/${ids.manual}`, payload: { auto_renew: 'yes' } });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['auto_renew']);
    expect((await subscriptionsOf(owner.user.id))[0]?.auto_renew).toBe(false);
    const audit = await t.db.selectFrom('audit_log').select('action').where('action', '=', 'subscription.auto_renew_off').execute();
    expect(audit).toHaveLength(1);
  });

  it('renew by hand through the cart: the same plan runs a year longer, also once it is no longer sold', async () => {
    const owner = shop.customers[3]!;
    const [before] = await subscriptionsOf(owner.user.id);
    await ok(shop.admin.call, { method: 'PATCH', url: `/api/system/shop/plans/${starter}`, payload: { active: false } });
    try {
      // Not sold to new customers any more, but a customer who has it may keep it.
      const fresh = await addToCart(shop.customers[4]!.call, { kind: 'hosting', plan_id: starter });
      expect(fresh.statusCode).toBe(422);
      const cases: [Caller, Record<string, unknown>, number, string | undefined][] = [
        [shop.customers[4]!.call, { kind: 'hosting', plan_id: starter, subscription_id: ids.byHand }, 404, undefined],
        [owner.call, { kind: 'hosting', plan_id: starter + 1, subscription_id: ids.byHand }, 422, 'plan_id'],
      ];
      for (const [call, payload, status, field] of cases) {
        const answer = await addToCart(call, payload);
        expect(answer.statusCode, JSON.stringify(payload)).toBe(status);
        if (field) expect(Object.keys(answer.json().errors)).toEqual([field]);
      }
      const cart = await ok(owner.call, {
        method: 'POST',
        url: '/api/cart/items',
        payload: { kind: 'hosting', plan_id: starter, subscription_id: ids.byHand },
      });
      expect(cart.data.rows).toMatchObject([{ title: 'Hosting Starter: renewal', available: true }]);
      const paid = await checkout(owner.call, 'credit', 'renew-by-hand');
      expect(paid.statusCode, paid.body).toBe(201);
    } finally {
      await ok(shop.admin.call, { method: 'PATCH', url: `/api/system/shop/plans/${starter}`, payload: { active: true } });
    }
    const after = await subscriptionsOf(owner.user.id);
    expect(after).toHaveLength(1);
    expect(new Date(after[0]!.expires_at).getTime()).toBe(addMonths(new Date(before!.expires_at), 12).getTime());
    expect(await balance(owner.call)).toBe(0);
    await ledgerConsistent(t, owner.user.id);
  });

  it('a monthly plan the credit does not cover gets an invoice due on its end date; paying it runs the plan a month longer', async () => {
    const owner = shop.customers[1]!;
    const [before] = await subscriptionsOf(owner.user.id);
    const end = new Date(before!.expires_at);
    t.clock.set(new Date(end.getTime() - 10 * DAY));
    expect((await pass()).renewals).toBe(1);
    const invoice = await t.db
      .selectFrom('invoices')
      .selectAll()
      .where('user_id', '=', owner.user.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({ status: 'unpaid', gross: MONTHLY_GROSS });
    expect(new Date(invoice.due_at as Date).getTime()).toBe(end.getTime());
    expect(await subjects(owner.user.email)).toContain('Please pay the renewal of Hosting Starter at harbor Hosting');
    // Still the same end until it is paid, and the services page says what waits; then a month from the old end, on the same plan.
    expect(new Date((await subscriptionsOf(owner.user.id))[0]!.expires_at).getTime()).toBe(end.getTime());
    const shown = async () => (await ok(await fresh(owner), { method: 'GET', url: '/api/shop/subscriptions' })).data[0].renewal_invoice;
    expect(await shown()).toEqual({ id: invoice.id, number: invoice.number, amount: '€4.72', due_at: end.toISOString() });
    await giveCredit(await callerFor(t, shop.admin.user), owner.user.id, MONTHLY_GROSS);
    await ok(await fresh(owner), { method: 'POST', url: `/api/account/invoices/${invoice.id}/pay`, payload: { payment: 'credit' } });
    const after = await subscriptionsOf(owner.user.id);
    expect(after).toHaveLength(1);
    expect(new Date(after[0]!.expires_at).getTime()).toBe(addMonths(end, 1).getTime());
    expect(await shown()).toBeNull();
    await ledgerConsistent(t, owner.user.id);
  });

  it('a plan not renewed automatically: its owner is reminded 30 days ahead, once, however many passes race', async () => {
    const owner = shop.customers[2]!;
    t.clock.set(new Date(addMonths(t0, 12).getTime() - 25 * DAY));
    await Promise.all([pass(), pass(), pass()]);
    expect(await ordersOf(owner.user.id)).toHaveLength(1);
    expect((await subjects(owner.user.email)).filter((subject) => subject.includes('ends soon'))).toEqual([
      'Your hosting plan Hosting Starter at harbor Hosting ends soon',
    ]);
    const notes = await t.db.selectFrom('notifications').select('text').where('user_id', '=', owner.user.id).execute();
    expect(notes.map((note) => note.text)).toContain(
      `Your hosting plan Hosting Starter ends on ${new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(addMonths(t0, 12))} and does not renew automatically.`,
    );
    // The auto-renewed yearly plan is not reminded: it is charged 14 days ahead.
    expect((await subjects(shop.customers[0]!.user.email)).filter((subject) => subject.includes('ends soon'))).toEqual([]);
  });

  it('a yearly plan is charged once from its owner’s credit, however many passes and jobs race', async () => {
    const owner = shop.customers[0]!;
    const [before] = await subscriptionsOf(owner.user.id);
    const end = new Date(before!.expires_at);
    t.clock.set(new Date(end.getTime() - 10 * DAY));
    const job = { subscriptionId: ids.yearly!, expiresAt: end.toISOString() };
    const outcomes = await Promise.all([
      t.services.billing.runOnce(),
      t.services.billing.runOnce(),
      ...Array.from({ length: 10 }, () => t.services.billing.renewPlan(job).catch((error: unknown) => String(error))),
    ]);
    await JobQueue.idleAll();
    expect(outcomes.some((outcome) => typeof outcome === 'string' && outcome.startsWith('Error'))).toBe(false);
    const orders = await ordersOf(owner.user.id);
    expect(orders).toHaveLength(2);
    expect(orders[1]).toMatchObject({
      status: 'paid',
      idempotency_key: `auto-renew:hosting:${ids.yearly}:${end.toISOString().slice(0, 10)}`,
    });
    expect(await balance(await fresh(owner))).toBe(20_000 - 2 * YEARLY_GROSS);
    await ledgerConsistent(t, owner.user.id);
    const after = await subscriptionsOf(owner.user.id);
    expect(after).toHaveLength(1);
    expect(new Date(after[0]!.expires_at).getTime()).toBe(addMonths(end, 12).getTime());
    expect((await subjects(owner.user.email)).filter((subject) => subject.includes('renewed'))).toEqual([
      'Hosting Starter at harbor Hosting was renewed',
    ]);
    // The plan switched off is left alone.
    expect(await ordersOf(shop.customers[2]!.user.id)).toHaveLength(1);
    expect((await pass()).renewals).toBe(0);
  });

  it('a renewed plan cancelled later refunds the unused part of the last payment', async () => {
    const owner = shop.customers[0]!;
    const call = await fresh(owner);
    const before = await balance(call);
    const answer = await ok(call, { method: 'POST', url: `/api/shop/subscriptions/${ids.yearly}/cancel` });
    // Ten days of the old year are left and the new year is untouched: the whole renewal comes back.
    expect(answer.data.refunded).toBe(YEARLY_GROSS);
    expect(await balance(call)).toBe(before + YEARLY_GROSS);
    await ledgerConsistent(t, owner.user.id);
  });
});
