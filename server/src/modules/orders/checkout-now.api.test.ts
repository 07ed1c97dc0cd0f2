import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { balance, checkout, giveCredit, ledgerConsistent, ok, shopTenant } from '../../../test/shop.ts';

let t: TestApp;

beforeAll(async () => {
  // 100 purchases by one customer at the same instant, past the checkout allowance: these tests hold
  // the ledger itself to its rules, so the rate limits (http/rate-limits.api.test.ts) stay out of them.
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const register = (name: string) => ({ item: { kind: 'domain_register', name, period_months: 12 } });
// A .com registration for a year: 12.90 net + 21 % VAT.
const GROSS = 1561;

describe('POST /api/shop/checkout with `item` ("buy now")', () => {
  it('orders that one product and leaves the cart as it was', async () => {
    const shop = await shopTenant(t, 'nowshop');
    const { call, user } = shop.customer;
    const plan = (await ok(call, { method: 'GET', url: '/api/shop/products' })).data.plans[0].id as number;
    await ok(call, { method: 'POST', url: '/api/cart/items', payload: { kind: 'hosting', plan_id: plan, period_months: 12 } });
    await giveCredit(shop.admin.call, user.id, 5_000);

    const answer = await checkout(call, 'credit', 'buy-now-0001', register('right-now.com'));
    expect(answer.statusCode, answer.body).toBe(201);
    const { data } = answer.json();
    expect(data).toMatchObject({ status: 'paid', invoice: { number: '2026-000001', totals: { gross: { amount: GROSS } } } });
    expect(data.invoice.lines.map((line: { title: string }) => line.title)).toEqual(['Domain registration right-now.com']);
    expect(await t.db.selectFrom('domains').select('owner_id').where('name', '=', 'right-now.com').executeTakeFirst()).toEqual({
      owner_id: user.id,
    });
    const cart = (await ok(call, { method: 'GET', url: '/api/cart' })).data.rows as { title: string }[];
    expect(cart.map((row) => row.title)).toEqual(['Hosting Starter']);
    expect(await balance(call)).toBe(5_000 - GROSS);
  });

  it('checks the product like the cart does: a taken name, a bad period, a domain the user cannot see', async () => {
    const shop = await shopTenant(t, 'nowcheck', { customers: 2 });
    const [first, second] = [shop.customers[0]!, shop.customers[1]!];
    await giveCredit(shop.admin.call, first.user.id, 5_000);
    const taken = await checkout(first.call, 'credit', 'buy-now-taken', register('right-now.com'));
    expect(taken.statusCode).toBe(422);
    expect(Object.keys(taken.json().errors)).toEqual(['name']);
    const period = await checkout(first.call, 'credit', 'buy-now-period', {
      item: { kind: 'domain_register', name: 'odd-period.com', period_months: 7 },
    });
    expect(period.statusCode).toBe(422);
    const theirs = await ok(second.call, { method: 'POST', url: '/api/host/domain', payload: { name: 'not-yours.com' } }, 201);
    const foreign = await checkout(first.call, 'credit', 'buy-now-foreign', {
      item: { kind: 'domain_renew', domain_id: theirs.data.id, period_months: 12 },
    });
    expect(foreign.statusCode).toBe(404);
    // Nothing was ordered and no invoice number was used.
    expect(await t.db.selectFrom('orders').select('id').where('user_id', '=', first.user.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('invoices').select('id').where('tenant_id', '=', shop.tenantId).execute()).toEqual([]);
    expect(await balance(first.call)).toBe(5_000);
  });
});

describe('100 concurrent checkouts against one balance', () => {
  it('sells exactly as many as the credit pays for, never below zero, with gap-free invoice numbers', async () => {
    const shop = await shopTenant(t, 'rush');
    const { call, user } = shop.customer;
    await giveCredit(shop.admin.call, user.id, 37 * GROSS);

    const names = Array.from({ length: 100 }, (_, i) => `rush-${String(i).padStart(3, '0')}.com`);
    const answers = await Promise.all(names.map((name, i) => checkout(call, 'credit', `rush-key-${i}`, register(name))));
    // On a busy machine some wait longer than the pool allows for a connection and get a clean 503
    // (nothing written); a client sends those again with the same idempotency key, as here.
    for (let round = 0; round < 5 && answers.some((answer) => answer.statusCode === 503); round++) {
      await Promise.all(
        answers.map(async (answer, i) => {
          if (answer.statusCode === 503) answers[i] = await checkout(call, 'credit', `rush-key-${i}`, register(names[i]!));
        }),
      );
    }

    const sold = answers.flatMap((answer, i) => (answer.statusCode === 201 ? [names[i]!] : []));
    const refused = answers.filter((answer) => answer.statusCode === 422);
    expect(sold).toHaveLength(37);
    expect(refused).toHaveLength(63);
    for (const answer of refused)
      expect(answer.json().errors.payment[0]).toMatch(/^Insufficient credit: the balance is €\d+\.\d\d, the amount due is €15\.61\.$/);

    expect(await balance(call)).toBe(0);
    expect(await ledgerConsistent(t, user.id)).toBe(0);
    const purchases = await t.db
      .selectFrom('credit_ledger')
      .select('amount')
      .where('user_id', '=', user.id)
      .where('type', '=', 'purchase')
      .execute();
    expect(purchases).toHaveLength(37);

    // Every sale delivered and invoiced; the refused ones left nothing behind.
    const domains = await t.db.selectFrom('domains').select('name').where('tenant_id', '=', shop.tenantId).orderBy('name').execute();
    expect(domains.map((d) => d.name)).toEqual([...sold].sort());
    expect(await t.db.selectFrom('orders').select('id').where('user_id', '=', user.id).execute()).toHaveLength(37);
    const invoices = await t.db
      .selectFrom('invoices')
      .select(['number', 'status'])
      .where('tenant_id', '=', shop.tenantId)
      .orderBy('number')
      .execute();
    expect(invoices.map((invoice) => invoice.number)).toEqual(
      Array.from({ length: 37 }, (_, i) => `2026-${String(i + 1).padStart(6, '0')}`),
    );
    expect(new Set(invoices.map((invoice) => invoice.status))).toEqual(new Set(['paid']));
  }, 120_000);
});
