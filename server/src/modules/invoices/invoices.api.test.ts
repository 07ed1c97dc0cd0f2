import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { callerFor } from '../../../test/hosting.ts';
import { addToCart, checkout, enableBankTransfer, giveCredit, ok, shopTenant } from '../../../test/shop.ts';

let t: TestApp;
let alpha: Awaited<ReturnType<typeof shopTenant>>;
let beta: Awaited<ReturnType<typeof shopTenant>>;

beforeAll(async () => {
  t = await createTestApp();
  alpha = await shopTenant(t, 'alpha', { customers: 2 });
  beta = await shopTenant(t, 'beta');
  await enableBankTransfer(alpha.admin.call, alpha.tenantId);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const buy = async (customer: { call: (typeof alpha)['customer']['call'] }, name: string, payment = 'bank_transfer') => {
  expect((await addToCart(customer.call, { kind: 'domain_register', name })).statusCode).toBe(200);
  const answer = await checkout(customer.call, payment, `buy-${name}`);
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data.invoice as { id: number; number: string };
};

describe('invoice numbers', () => {
  it('count per tenant and per year without gaps', async () => {
    const a1 = await buy(alpha.customer, 'one-a.com');
    const a2 = await buy(alpha.customers[1]!, 'two-a.com');
    await giveCredit(beta.admin.call, beta.customer.user.id, 5000);
    const b1 = await buy(beta.customer, 'one-b.com', 'credit');
    expect([a1.number, a2.number, b1.number]).toEqual(['2026-000001', '2026-000002', '2026-000001']);
    const a3 = await buy(alpha.customer, 'three-a.com');
    expect(a3.number).toBe('2026-000003');
  });
});

describe('GET /api/account/invoices', () => {
  it("lists the user's own invoices, newest first, in keyset pages, filtered by status", async () => {
    const first = await ok(alpha.customer.call, { method: 'GET', url: '/api/account/invoices', query: { limit: '1' } });
    expect(first.data.map((i: { number: string }) => i.number)).toEqual(['2026-000003']);
    expect(first.data[0]).toMatchObject({
      kind: 'order',
      status: 'unpaid',
      payment_provider: 'bank_transfer',
      gross: { amount: 1561 },
      buyer: { email: 'c0@alpha.test' },
    });
    const second = await ok(alpha.customer.call, {
      method: 'GET',
      url: '/api/account/invoices',
      query: { limit: '1', cursor: first.next_cursor },
    });
    expect(second.data.map((i: { number: string }) => i.number)).toEqual(['2026-000001']);
    expect(second.next_cursor).toBeNull();
    const paid = await ok(alpha.customer.call, { method: 'GET', url: '/api/account/invoices', query: { status: 'paid' } });
    expect(paid.data).toEqual([]);
  });

  it('shows one invoice with lines, totals and how to pay; someone else’s is 404', async () => {
    const list = await ok(alpha.customer.call, { method: 'GET', url: '/api/account/invoices' });
    const id = list.data[1].id;
    const invoice = (await ok(alpha.customer.call, { method: 'GET', url: `/api/account/invoices/${id}` })).data;
    expect(invoice).toMatchObject({
      number: '2026-000001',
      currency: 'EUR',
      vat_rate: 21,
      lines: [
        {
          title: 'Domain registration one-a.com',
          kind: 'domain_register',
          period_months: 12,
          net: { amount: 1290 },
          discount: { amount: 0 },
        },
      ],
      totals: { subtotal: { amount: 1290 }, net: { amount: 1290 }, vat: { amount: 271 }, gross: { amount: 1561 } },
      instructions: { kind: 'bank_transfer', reference: '2026000001', amount: 1561 },
      seller: { title: 'alpha Hosting' },
    });
    expect((await alpha.customers[1]!.call({ method: 'GET', url: `/api/account/invoices/${id}` })).statusCode).toBe(404);
    expect((await beta.customer.call({ method: 'GET', url: `/api/account/invoices/${id}` })).statusCode).toBe(404);
    expect((await alpha.customer.call({ method: 'GET', url: '/api/account/invoices/99999999' })).statusCode).toBe(404);
  });
});

describe('GET /api/system/invoices', () => {
  it("lists the admin's tenant's invoices only, filtered by buyer", async () => {
    const all = await ok(alpha.admin.call, { method: 'GET', url: '/api/system/invoices' });
    expect(all.data.map((i: { number: string }) => i.number)).toEqual(['2026-000003', '2026-000002', '2026-000001']);
    const one = await ok(alpha.admin.call, {
      method: 'GET',
      url: '/api/system/invoices',
      query: { user_id: String(alpha.customers[1]!.user.id) },
    });
    expect(one.data.map((i: { number: string }) => i.number)).toEqual(['2026-000002']);
    expect(
      (await alpha.admin.call({ method: 'GET', url: '/api/system/invoices', query: { user_id: String(beta.customer.user.id) } }))
        .statusCode,
    ).toBe(404);
    const betaList = await ok(beta.admin.call, { method: 'GET', url: '/api/system/invoices' });
    expect(betaList.data.map((i: { buyer: { email: string } }) => i.buyer.email)).toEqual(['c0@beta.test']);
    expect((await alpha.customer.call({ method: 'GET', url: '/api/system/invoices' })).statusCode).toBe(403);
    const foreignId = betaList.data[0].id;
    expect((await alpha.admin.call({ method: 'GET', url: `/api/system/invoices/${foreignId}` })).statusCode).toBe(404);
    expect((await beta.admin.call({ method: 'GET', url: `/api/system/invoices/${foreignId}` })).statusCode).toBe(200);
  });
});

describe('settlement', () => {
  it('settles once per (provider, reference), records the payment, and is audited', async () => {
    const invoice = (await ok(alpha.customer.call, { method: 'GET', url: '/api/account/invoices', query: { status: 'unpaid' } })).data[0];
    const input = {
      tenantId: alpha.tenantId,
      invoiceId: invoice.id,
      provider: 'stripe' as const,
      reference: 'pi_123',
      amount: 1561,
      actorId: null,
    };
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => t.services.settlement.settle(input)));
    expect(outcomes.filter((o) => o.settled)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.settled).every((o) => o.alreadyPaid)).toBe(true);
    expect(
      await t.db.selectFrom('payments').select(['provider', 'reference', 'amount']).where('invoice_id', '=', invoice.id).execute(),
    ).toEqual([{ provider: 'stripe', reference: 'pi_123', amount: 1561 }]);
    expect(await t.db.selectFrom('domains').select('id').where('name', '=', 'three-a.com').execute()).toHaveLength(1);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'tenant_id'])
      .where('action', '=', 'invoice.paid')
      .where('target_id', '=', String(invoice.id))
      .execute();
    expect(audit).toEqual([{ action: 'invoice.paid', tenant_id: alpha.tenantId }]);
    const shown = (await ok(alpha.customer.call, { method: 'GET', url: `/api/account/invoices/${invoice.id}` })).data;
    expect(shown.status).toBe('paid');
    expect(shown.paid_at).toBe('2026-11-01T09:00:00.000Z');
  });
});

describe('a new year', () => {
  it('starts the numbers at 1 again', async () => {
    t.clock.set(new Date('2027-01-01T00:00:01Z'));
    // Sessions end after 24 h: sign in again in the new year.
    const call = await callerFor(t, alpha.customer.user);
    const invoice = await buy({ call }, 'new-year.com');
    expect(invoice.number).toBe('2027-000001');
  });
});
