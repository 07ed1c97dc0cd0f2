import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { balance, checkout, enableBankTransfer, giveCredit, ledgerConsistent, ok, shopTenant } from '../../../test/shop.ts';

let t: TestApp;
let alpha: Awaited<ReturnType<typeof shopTenant>>;
let beta: Awaited<ReturnType<typeof shopTenant>>;

beforeAll(async () => {
  t = await createTestApp();
  alpha = await shopTenant(t, 'alpha', { customers: 4 });
  beta = await shopTenant(t, 'beta');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const starterId = async () => (await ok(alpha.customer.call, { method: 'GET', url: '/api/shop/products' })).data.plans[0].id as number;

describe('POST /api/shop/checkout paid from credit', () => {
  it('creates the order and a numbered invoice, takes the credit, delivers everything and empties the cart', async () => {
    const { call, user } = alpha.customer;
    const owned = await ok(call, { method: 'POST', url: '/api/host/domain', payload: { name: 'renew-me.com' } }, 201);
    await ok(alpha.admin.call, {
      method: 'PATCH',
      url: `/api/host/domain/${owned.data.id}`,
      payload: { expire_at: '2027-01-15T00:00:00Z' },
    });
    await ok(call, { method: 'POST', url: '/api/cart/items', payload: { kind: 'hosting', plan_id: await starterId(), period_months: 12 } });
    await ok(call, {
      method: 'POST',
      url: '/api/cart/items',
      payload: { kind: 'domain_register', name: 'fresh-start.com', period_months: 24 },
    });
    await ok(call, {
      method: 'POST',
      url: '/api/cart/items',
      payload: { kind: 'domain_renew', domain_id: owned.data.id, period_months: 12 },
    });
    // 3900 + 2580 + 1490 net = 7970; VAT 21 % = 1674; gross 9644
    await giveCredit(alpha.admin.call, user.id, 10_000);

    const answer = await checkout(call, 'credit', 'order-one-0001');
    expect(answer.statusCode, answer.body).toBe(201);
    const { data, message } = answer.json();
    expect(message).toBe('Thank you! Invoice 2026-000001 is paid and your order is ready.');
    expect(data.status).toBe('paid');
    expect(data.invoice).toMatchObject({
      number: '2026-000001',
      kind: 'order',
      status: 'paid',
      payment_provider: 'credit',
      payment_reference: '2026000001',
      vat_rate: 21,
      instructions: null,
      seller: { title: 'alpha Hosting' },
      buyer: { id: user.id, email: 'c0@alpha.test' },
    });
    expect(data.invoice.totals).toMatchObject({
      subtotal: { amount: 7970 },
      discount: { amount: 0 },
      net: { amount: 7970 },
      vat: { amount: 1674 },
      gross: { amount: 9644, formatted: '€96.44' },
    });
    expect(data.invoice.lines.map((line: { title: string; net: { amount: number } }) => [line.title, line.net.amount])).toEqual([
      ['Hosting Starter', 3900],
      ['Domain registration fresh-start.com', 2580],
      ['Domain renewal renew-me.com', 1490],
    ]);

    // Delivered: the new domain with its expiry and zone, the renewed expiry, the hosting plan.
    const fresh = await t.db.selectFrom('domains').selectAll().where('name', '=', 'fresh-start.com').executeTakeFirstOrThrow();
    expect(fresh).toMatchObject({ owner_id: user.id, tenant_id: alpha.tenantId });
    expect(new Date(fresh.expire_at as Date).toISOString()).toBe('2028-11-01T09:00:00.000Z');
    expect(await t.db.selectFrom('dns_zones').select('domain_id').where('domain_id', '=', fresh.id).executeTakeFirst()).toBeDefined();
    const renewed = await t.db.selectFrom('domains').select('expire_at').where('id', '=', owned.data.id).executeTakeFirstOrThrow();
    expect(new Date(renewed.expire_at as Date).toISOString()).toBe('2028-01-15T00:00:00.000Z');
    const subscriptions = (await ok(call, { method: 'GET', url: '/api/shop/subscriptions' })).data;
    expect(subscriptions).toMatchObject([
      {
        title: 'Hosting Starter',
        expires_at: '2027-11-01T09:00:00.000Z',
        active: true,
        plan: { title: 'Starter', monthly: { gross: { formatted: expect.any(String) } } },
      },
    ]);
    // A plan whose period has run out is listed, no longer active (the row moved a year back).
    const year = 365 * 24 * 60 * 60 * 1000;
    const row = await t.db
      .selectFrom('hosting_subscriptions')
      .select(['id', 'expires_at'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('hosting_subscriptions')
      .set({ expires_at: new Date(new Date(row.expires_at).getTime() - 2 * year) })
      .where('id', '=', row.id)
      .execute();
    expect((await ok(call, { method: 'GET', url: '/api/shop/subscriptions' })).data).toMatchObject([{ active: false }]);
    await t.db.updateTable('hosting_subscriptions').set({ expires_at: row.expires_at }).where('id', '=', row.id).execute();

    expect(await balance(call)).toBe(10_000 - 9644);
    await ledgerConsistent(t, user.id);
    expect((await ok(call, { method: 'GET', url: '/api/cart' })).data.rows).toEqual([]);
    const audit = await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_type', '=', 'order')
      .where('target_id', '=', String(data.order_id))
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['order.created']);
  });

  it("credits the partner's commission (10 % of the net) and shows it as the partner's commission in GET /api/user", async () => {
    const entries = (await ok(alpha.admin.call, { method: 'GET', url: '/api/credit' })).data;
    expect(entries.balance.amount).toBe(797);
    expect(entries.entries).toMatchObject([
      { type: 'commission', amount: { amount: 797 }, description: 'Commission on invoice 2026-000001' },
    ]);
    const me = (await ok(alpha.admin.call, { method: 'GET', url: '/api/user' })).data.user;
    expect(me.commission).toEqual({ value: 7.97, value_formatted: '€7.97' });
    expect((await ok(alpha.customer.call, { method: 'GET', url: '/api/user' })).data.user.commission.value).toBe(3.56);
  });

  it('refuses a checkout without enough credit and leaves no trace: no order, no invoice number used, cart kept', async () => {
    const { call, user } = alpha.customers[1]!;
    await ok(call, { method: 'POST', url: '/api/cart/items', payload: { kind: 'domain_register', name: 'too-expensive.io' } });
    await giveCredit(alpha.admin.call, user.id, 1000);
    const answer = await checkout(call, 'credit', 'poor-0000001');
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors.payment).toEqual(['Insufficient credit: the balance is €10.00, the amount due is €48.28.']);
    expect(await t.db.selectFrom('orders').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('domains').select('id').where('name', '=', 'too-expensive.io').execute()).toEqual([]);
    expect((await ok(call, { method: 'GET', url: '/api/cart' })).data.rows).toHaveLength(1);
    expect(await balance(call)).toBe(1000);

    // Topped up, the same key now goes through and takes the next number: no gap.
    await giveCredit(alpha.admin.call, user.id, 4000);
    const paid = await checkout(call, 'credit', 'poor-0000001');
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().data.invoice.number).toBe('2026-000002');
  });

  it('answers the same order for a repeated idempotency key, from the body or the Idempotency-Key header', async () => {
    const { call, user } = alpha.customers[2]!;
    await giveCredit(alpha.admin.call, user.id, 50_000);
    await ok(call, { method: 'POST', url: '/api/cart/items', payload: { kind: 'domain_register', name: 'once-only.eu' } });
    const first = await call({
      method: 'POST',
      url: '/api/shop/checkout',
      headers: { 'idempotency-key': 'header-key-123' },
      payload: { payment: 'credit' },
    });
    expect(first.statusCode, first.body).toBe(201);
    const again = await checkout(call, 'credit', 'header-key-123');
    expect(again.statusCode).toBe(200);
    expect(again.json().data.order_id).toBe(first.json().data.order_id);
    expect(again.json().data.invoice.number).toBe(first.json().data.invoice.number);
    expect(await t.db.selectFrom('orders').select('id').where('user_id', '=', user.id).execute()).toHaveLength(1);
    // A new key with an empty cart is refused.
    const empty = await checkout(call, 'credit', 'header-key-456');
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.cart).toEqual(['Your cart is empty.']);
    // No key at all is refused.
    const keyless = await call({ method: 'POST', url: '/api/shop/checkout', payload: { payment: 'credit' } });
    expect(keyless.statusCode).toBe(422);
    expect(keyless.json().errors.idempotency_key).toBeDefined();
  });

  it('makes one order of concurrent requests with the same key', async () => {
    const { call, user } = alpha.customers[3]!;
    await giveCredit(alpha.admin.call, user.id, 50_000);
    await ok(call, { method: 'POST', url: '/api/cart/items', payload: { kind: 'domain_register', name: 'double-click.org' } });
    const answers = await Promise.all(Array.from({ length: 8 }, () => checkout(call, 'credit', 'double-click-key')));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.json().data.order_id)).size).toBe(1);
    expect(await t.db.selectFrom('orders').select('id').where('user_id', '=', user.id).execute()).toHaveLength(1);
    expect(await balance(call)).toBe(50_000 - 1682);
  });

  it('refuses a way to pay the tenant does not offer', async () => {
    await ok(beta.customer.call, { method: 'POST', url: '/api/cart/items', payload: { kind: 'domain_register', name: 'no-bank.com' } });
    const answer = await checkout(beta.customer.call, 'bank_transfer', 'no-bank-key-1');
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors.payment).toEqual(['This payment method is not available.']);
  });
});

describe('POST /api/shop/checkout by bank transfer', () => {
  it('leaves the order pending with how to pay, then delivers it when an admin confirms the payment', async () => {
    await enableBankTransfer(beta.admin.call, beta.tenantId);
    const { call, user } = beta.customer;
    const answer = await checkout(call, 'bank_transfer', 'bank-order-01');
    expect(answer.statusCode, answer.body).toBe(201);
    const { data, message } = answer.json();
    expect(message).toBe('Your order has been placed. It is activated when the payment for invoice 2026-000001 arrives.');
    expect(data.status).toBe('pending');
    expect(data.invoice).toMatchObject({ status: 'unpaid', number: '2026-000001', payment_provider: 'bank_transfer' });
    expect(data.invoice.instructions).toMatchObject({
      kind: 'bank_transfer',
      iban: 'DE89370400440532013000',
      reference: '2026000001',
      amount: 1561,
      currency: 'EUR',
    });
    expect(data.invoice.instructions.qr_svg).toContain('<svg');
    expect((await ok(call, { method: 'GET', url: '/api/cart' })).data.rows).toEqual([]);
    expect(await t.db.selectFrom('domains').select('id').where('name', '=', 'no-bank.com').execute()).toEqual([]);

    // Another tenant's admin cannot confirm it; the tenant's admin can, once.
    expect(
      (await alpha.admin.call({ method: 'POST', url: `/api/system/invoices/${data.invoice.id}/mark-paid`, payload: {} })).statusCode,
    ).toBe(404);
    await ok(beta.admin.call, { method: 'POST', url: `/api/system/invoices/${data.invoice.id}/mark-paid`, payload: {} });
    const domain = await t.db.selectFrom('domains').selectAll().where('name', '=', 'no-bank.com').executeTakeFirstOrThrow();
    expect(domain.owner_id).toBe(user.id);
    const invoice = (await ok(call, { method: 'GET', url: `/api/account/invoices/${data.invoice.id}` })).data;
    expect(invoice).toMatchObject({ status: 'paid', instructions: null });
    expect((await ok(beta.admin.call, { method: 'GET', url: '/api/credit' })).data.balance.amount).toBe(129);

    const second = await ok(beta.admin.call, { method: 'POST', url: `/api/system/invoices/${data.invoice.id}/mark-paid`, payload: {} });
    expect(second.data).toMatchObject({ settled: false, already_paid: true });
    expect((await ok(beta.admin.call, { method: 'GET', url: '/api/credit' })).data.balance.amount).toBe(129);
    expect(await t.db.selectFrom('payments').select('id').where('invoice_id', '=', data.invoice.id).execute()).toHaveLength(1);
  });

  it('refunds to credit an item that can no longer be delivered when the payment arrives', async () => {
    const { call, user } = beta.customer;
    await ok(call, { method: 'POST', url: '/api/cart/items', payload: { kind: 'domain_register', name: 'race-lost.com' } });
    const pending = (await checkout(call, 'bank_transfer', 'bank-order-02')).json().data;
    // Someone else adds the name to the panel before the transfer arrives.
    await ok(alpha.admin.call, { method: 'POST', url: '/api/host/domain', payload: { name: 'race-lost.com' } }, 201);
    await ok(beta.admin.call, { method: 'POST', url: `/api/system/invoices/${pending.invoice.id}/mark-paid`, payload: {} });
    const credit = (await ok(call, { method: 'GET', url: '/api/credit' })).data;
    expect(credit.entries).toMatchObject([
      { type: 'refund', amount: { amount: 1561 }, description: 'Refund: Domain registration race-lost.com' },
    ]);
    await ledgerConsistent(t, user.id);
  });
});
