import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { callerFor } from '../../../test/hosting.ts';
import { balance, checkout, giveCredit, ledgerConsistent, ok, shopTenant } from '../../../test/shop.ts';

let t: TestApp;
let alpha: Awaited<ReturnType<typeof shopTenant>>;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestApp();
  alpha = await shopTenant(t, 'alpha', { customers: 2 });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('POST /api/shop/subscriptions/{id}/cancel', () => {
  it('ends the plan now and credits the unused days once, however many ask at the same instant', async () => {
    const { call, user } = alpha.customer;
    const plans = (await ok(call, { method: 'GET', url: '/api/shop/products' })).data.plans;
    // Starter for a year: €39.00 net, €47.19 with 21 % VAT, paid from credit on Nov 1, 2026.
    await ok(call, { method: 'POST', url: '/api/cart/items', payload: { kind: 'hosting', plan_id: plans[0].id, period_months: 12 } });
    await giveCredit(alpha.admin.call, user.id, 5_000);
    expect((await checkout(call, 'credit', 'cancel-plan-0001')).statusCode).toBe(201);
    const [subscription] = (await ok(call, { method: 'GET', url: '/api/shop/subscriptions' })).data;
    expect(await balance(call)).toBe(5_000 - 4_719);

    // 100 days and an hour later: 264 whole days of 365 unused, 4719 × 264 / 365 = 3413.19.
    t.clock.advance(100 * DAY + 60 * 60 * 1000);
    const caller = await callerFor(t, user);
    // Someone else's plan is not found.
    const other = await callerFor(t, alpha.customers[1]!.user);
    expect((await other({ method: 'POST', url: `/api/shop/subscriptions/${subscription.id}/cancel` })).statusCode).toBe(404);
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => caller({ method: 'POST', url: `/api/shop/subscriptions/${subscription.id}/cancel` })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(29);
    const done = answers.find((a) => a.statusCode === 200)!.json();
    expect(done).toEqual({
      data: { refunded: 3413, formatted: '€34.13' },
      message: 'Hosting Starter is cancelled; €34.13 for the unused time is in your credit.',
    });
    expect(answers.find((a) => a.statusCode === 409)!.json().message).toBe('This plan has already ended.');
    expect(await balance(caller)).toBe(5_000 - 4_719 + 3_413);
    expect(await ledgerConsistent(t, user.id)).toBe(5_000 - 4_719 + 3_413);
    const entry = await t.db
      .selectFrom('credit_ledger')
      .select(['amount', 'type', 'description'])
      .where('reference', '=', `cancel:subscription:${subscription.id}`)
      .execute();
    expect(entry).toEqual([{ amount: 3413, type: 'refund', description: 'Unused time of Hosting Starter, cancelled' }]);

    const after = (await ok(caller, { method: 'GET', url: '/api/shop/subscriptions' })) as {
      data: { active: boolean }[];
      usage: { allowance: { active: boolean } };
    };
    expect(after.data).toMatchObject([{ active: false }]);
    expect(after.usage.allowance.active).toBe(false);
    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'subscription.cancelled').execute();
    expect(audit).toHaveLength(1);
  });
});

describe('POST /api/shop/subscriptions/{id}/change', () => {
  it('ends the plan, credits its unused days and pays the new one from the credit, all or nothing, once', async () => {
    const customer = alpha.customers[1]!;
    // Fresh sessions: the test above moved the clock 100 days on.
    let call = await callerFor(t, customer.user);
    let admin = await callerFor(t, alpha.admin.user);
    const plans = (await ok(call, { method: 'GET', url: '/api/shop/products' })).data.plans as { id: number; title: string }[];
    const [starter, bigger] = plans;
    if (!starter || !bigger) throw new Error('the shop sells two plans');
    await giveCredit(admin, customer.user.id, 5_000);
    const bought = await call({
      method: 'POST',
      url: '/api/shop/checkout',
      payload: {
        payment: 'credit',
        idempotency_key: 'change-plan-0001',
        item: { kind: 'hosting', plan_id: starter.id, period_months: 12 },
      },
    });
    expect(bought.statusCode, bought.body).toBe(201);
    const [subscription] = (await ok(call, { method: 'GET', url: '/api/shop/subscriptions' })).data as { id: number }[];
    t.clock.advance(100 * DAY + 60 * 60 * 1000);
    call = await callerFor(t, customer.user);
    admin = await callerFor(t, alpha.admin.user);
    const change = (key: string, planId = bigger.id) =>
      call({
        method: 'POST',
        url: `/api/shop/subscriptions/${subscription!.id}/change`,
        payload: { plan_id: planId, idempotency_key: key },
      });

    // Not enough credit even with the unused days: refused, and nothing changed.
    const before = await balance(call);
    const short = await change('change-plan-short');
    expect(short.statusCode, short.body).toBe(422);
    expect(short.json().message).toMatch(/^Insufficient credit/);
    expect(await balance(call)).toBe(before);
    expect((await ok(call, { method: 'GET', url: '/api/shop/subscriptions' })).data).toMatchObject([
      { id: subscription!.id, active: true },
    ]);

    // The same plan again is no change.
    expect((await change('change-plan-same', starter.id)).json().errors.plan_id).toEqual([
      'This is the plan you have; choose another one.',
    ]);

    await giveCredit(admin, customer.user.id, 20_000);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => change(`change-plan-race-${i}`)));
    // One wins; the others find the plan ended, or are stopped by the checkout rate limit first.
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409).length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.statusCode !== 409 && a.statusCode !== 429)).toHaveLength(1);
    const done = answers.find((a) => a.statusCode === 201)!.json();
    expect(done.data.status).toBe('paid');
    expect(done.message).toBe(
      `You now have Hosting ${bigger.title}. The unused time of Hosting ${starter.title} (€34.13) went to your credit, which paid invoice ${done.data.invoice.number}.`,
    );
    const after = (await ok(call, { method: 'GET', url: '/api/shop/subscriptions' })).data as { plan_id: number; active: boolean }[];
    expect(after.map((row) => [row.plan_id, row.active]).sort()).toEqual(
      [
        [starter.id, false],
        [bigger.id, true],
      ].sort(),
    );
    expect(await balance(call)).toBe(before + 20_000 + 3_413 - done.data.invoice.gross.amount);
    expect(await ledgerConsistent(t, customer.user.id)).toBe(await balance(call));
  });
});
