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
