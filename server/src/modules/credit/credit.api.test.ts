import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { balance, checkout, enableBankTransfer, giveCredit, ledgerConsistent, ok, shopTenant } from '../../../test/shop.ts';

let t: TestApp;
let alpha: Awaited<ReturnType<typeof shopTenant>>;
let beta: Awaited<ReturnType<typeof shopTenant>>;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  // 100 purchases by one customer at the same instant, past the checkout allowance: these tests hold
  // the ledger itself to its rules, so the rate limits (http/rate-limits.api.test.ts) stay out of them.
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  alpha = await shopTenant(t, 'alpha', { customers: 3 });
  beta = await shopTenant(t, 'beta');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('manual credit by admins (POST /api/system/credit/adjustments)', () => {
  const adjust = (call = alpha.admin.call, payload: Record<string, unknown>) =>
    call({ method: 'POST', url: '/api/system/credit/adjustments', payload });

  it('credits and debits a user of the tenant, never below zero, audited', async () => {
    const { user, call } = alpha.customer;
    const credited = await adjust(alpha.admin.call, { user_id: user.id, amount: 2500, description: 'Welcome bonus' });
    expect(credited.statusCode, credited.body).toBe(201);
    expect(credited.json()).toMatchObject({
      data: {
        user_id: user.id,
        balance: { amount: 2500 },
        entry: { type: 'manual', amount: { amount: 2500 }, description: 'Welcome bonus' },
      },
      message: 'The credit balance is now €25.00.',
    });
    expect((await adjust(alpha.admin.call, { user_id: user.id, amount: -500, description: 'Correction' })).statusCode).toBe(201);
    const tooMuch = await adjust(alpha.admin.call, { user_id: user.id, amount: -2001, description: 'Too much' });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().errors.amount).toEqual(['This debit would take the balance below zero (the balance is €20.00).']);
    expect(await balance(call)).toBe(2000);
    await ledgerConsistent(t, user.id);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'user_id', 'tenant_id'])
      .where('action', '=', 'credit.adjusted')
      .where('target_id', '=', String(user.id))
      .execute();
    expect(audit).toEqual([
      { action: 'credit.adjusted', user_id: alpha.admin.user.id, tenant_id: alpha.tenantId },
      { action: 'credit.adjusted', user_id: alpha.admin.user.id, tenant_id: alpha.tenantId },
    ]);
  });

  it('is for admins of the user tenant only', async () => {
    expect((await adjust(alpha.customer.call, { user_id: alpha.customer.user.id, amount: 100, description: 'self' })).statusCode).toBe(403);
    expect((await adjust(beta.admin.call, { user_id: alpha.customer.user.id, amount: 100, description: 'foreign' })).statusCode).toBe(404);
    const invalid = await adjust(alpha.admin.call, { user_id: alpha.customer.user.id, amount: 0, description: '' });
    expect(invalid.statusCode).toBe(422);
    expect(Object.keys(invalid.json().errors).sort()).toEqual(['amount', 'description']);
  });

  it('takes 100 concurrent debits against one balance without going below zero', async () => {
    const { user, call } = alpha.customers[1]!;
    await giveCredit(alpha.admin.call, user.id, 3700);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => adjust(alpha.admin.call, { user_id: user.id, amount: -100, description: `debit ${i}` })),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(37);
    expect(answers.filter((a) => a.statusCode === 422)).toHaveLength(63);
    expect(await balance(call)).toBe(0);
    expect(await ledgerConsistent(t, user.id)).toBe(0);
  });
});

describe('100 concurrent checkouts against one balance', () => {
  it('sell the cart once and never take the balance below zero', async () => {
    const { user, call } = alpha.customers[2]!;
    await ok(call, { method: 'POST', url: '/api/cart/items', payload: { kind: 'domain_register', name: 'contended.com' } });
    // Enough for the cart once (1561) but not twice.
    await giveCredit(alpha.admin.call, user.id, 2000);
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => checkout(call, 'credit', `contended-${String(i).padStart(3, '0')}`)),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 422)).toHaveLength(99);
    expect(await balance(call)).toBe(2000 - 1561);
    await ledgerConsistent(t, user.id);
    expect(await t.db.selectFrom('orders').select('id').where('user_id', '=', user.id).execute()).toHaveLength(1);
    expect(await t.db.selectFrom('invoices').select('number').where('tenant_id', '=', alpha.tenantId).execute()).toHaveLength(1);
  });
});

describe('top-up (POST /api/credit/top-up)', () => {
  it('keeps the amount within the tenant limits and needs an offered payment', async () => {
    const low = await alpha.customer.call({
      method: 'POST',
      url: '/api/credit/top-up',
      payload: { amount: 500, payment: 'bank_transfer' },
    });
    expect(low.statusCode).toBe(422);
    expect(low.json().errors.amount).toEqual(['Enter an amount between €10.00 and €10,000.00.']);
    const noBank = await alpha.customer.call({
      method: 'POST',
      url: '/api/credit/top-up',
      payload: { amount: 5000, payment: 'bank_transfer' },
    });
    expect(noBank.statusCode).toBe(422);
    expect(noBank.json().errors.payment).toBeDefined();
    expect(
      (await alpha.customer.call({ method: 'POST', url: '/api/credit/top-up', payload: { amount: 5000, payment: 'credit' } })).statusCode,
    ).toBe(422);
  });

  it('issues a credit invoice paid by transfer; the credit arrives once when the payment is confirmed', async () => {
    await enableBankTransfer(alpha.admin.call, alpha.tenantId);
    const { user, call } = alpha.customer;
    const before = await balance(call);
    const answer = await call({ method: 'POST', url: '/api/credit/top-up', payload: { amount: 5000, payment: 'bank_transfer' } });
    expect(answer.statusCode, answer.body).toBe(201);
    const invoice = answer.json().data.invoice;
    expect(answer.json().message).toBe(`Invoice ${invoice.number} has been issued. The credit arrives when the payment is confirmed.`);
    expect(invoice).toMatchObject({
      kind: 'credit',
      status: 'unpaid',
      vat_rate: 0,
      totals: { gross: { amount: 5000 } },
      lines: [{ title: 'Credit top-up', kind: 'credit' }],
    });
    expect(invoice.instructions).toMatchObject({ kind: 'bank_transfer', amount: 5000, reference: invoice.payment_reference });
    expect(await balance(call)).toBe(before);

    // The bank statement and the admin both confirm it: settled once per reference, credited once.
    const settle = (reference: string) =>
      t.services.settlement.settle({
        tenantId: alpha.tenantId,
        invoiceId: invoice.id,
        provider: 'bank_transfer',
        reference,
        amount: 5000,
        actorId: null,
      });
    const results = await Promise.all([settle('bank-tx-1'), settle('bank-tx-1'), settle('bank-tx-1')]);
    expect(results.filter((r) => r.settled)).toHaveLength(1);
    expect(await settle('bank-tx-2')).toEqual({ settled: false, alreadyPaid: true });
    expect(await balance(call)).toBe(before + 5000);
    await ledgerConsistent(t, user.id);
    const entries = (await ok(call, { method: 'GET', url: '/api/credit', query: { type: 'top_up' } })).data.entries;
    expect(entries).toMatchObject([
      { type: 'top_up', amount: { amount: 5000 }, invoice_id: invoice.id, description: `Top-up, invoice ${invoice.number}` },
    ]);
    // A top-up earns the partner nothing.
    expect(
      await t.db.selectFrom('credit_ledger').select('id').where('type', '=', 'commission').where('invoice_id', '=', invoice.id).execute(),
    ).toEqual([]);
  });

  it('refuses a payment smaller than the invoice', async () => {
    const answer = await alpha.customer.call({
      method: 'POST',
      url: '/api/credit/top-up',
      payload: { amount: 3000, payment: 'bank_transfer' },
    });
    const invoice = answer.json().data.invoice;
    await expect(
      t.services.settlement.settle({
        tenantId: alpha.tenantId,
        invoiceId: invoice.id,
        provider: 'bank_transfer',
        reference: 'short-1',
        amount: 2999,
        actorId: null,
      }),
    ).rejects.toMatchObject({ status: 422 });
    await expect(
      t.services.settlement.settle({
        tenantId: beta.tenantId,
        invoiceId: invoice.id,
        provider: 'bank_transfer',
        reference: 'wrong-tenant',
        amount: 3000,
        actorId: null,
      }),
    ).rejects.toMatchObject({ status: 404 });
    expect((await ok(alpha.customer.call, { method: 'GET', url: `/api/account/invoices/${invoice.id}` })).data.status).toBe('unpaid');
  });
});

describe('GET /api/credit and the CSV export', () => {
  it('filters by type and date range and walks keyset pages, newest first', async () => {
    const { user, call } = alpha.customers[0]!;
    const start = t.clock.now();
    for (let day = 1; day <= 5; day++) {
      t.clock.advance(DAY);
      await giveCredit(alpha.admin.call, user.id, day * 100);
    }
    const pages: number[][] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, string> = {
        type: 'manual',
        limit: '2',
        from: new Date(start.getTime() + DAY).toISOString().slice(0, 10),
      };
      if (cursor) query.cursor = cursor;
      const answer = await ok(call, { method: 'GET', url: '/api/credit', query });
      pages.push(answer.data.entries.map((e: { amount: { amount: number } }) => e.amount.amount));
      cursor = answer.next_cursor;
    } while (cursor);
    expect(pages).toEqual([[500, 400], [300, 200], [100]]);
    const day3 = new Date(start.getTime() + 3 * DAY).toISOString().slice(0, 10);
    const oneDay = await ok(call, { method: 'GET', url: '/api/credit', query: { from: day3, to: day3 } });
    expect(oneDay.data.entries.map((e: { amount: { amount: number } }) => e.amount.amount)).toEqual([300]);
    expect((await call({ method: 'GET', url: '/api/credit', query: { cursor: 'garbage' } })).statusCode).toBe(422);
  });

  it('exports the ledger as CSV and defuses spreadsheet formulas', async () => {
    const { user, call } = alpha.customers[0]!;
    await ok(
      alpha.admin.call,
      {
        method: 'POST',
        url: '/api/system/credit/adjustments',
        payload: { user_id: user.id, amount: 1, description: '=HYPERLINK("http://evil")' },
      },
      201,
    );
    const answer = await call({ method: 'GET', url: '/api/credit/export.csv', query: { type: 'manual' } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe('attachment; filename="credit.csv"');
    const lines = answer.body.trim().split('\r\n');
    expect(lines[0]).toBe('date,type,description,amount,currency,amount_formatted,invoice_id');
    expect(lines[1]).toMatch(/^[0-9T:.-]+Z,manual,"'=HYPERLINK\(""http:\/\/evil""\)",0\.01,EUR,"€0\.01",$/);
    // The header, two corrections of the first test, five daily credits and this one.
    expect(lines).toHaveLength(1 + 2 + 5 + 1);
  });

  it('shows each user only their own ledger', async () => {
    const foreign = (await ok(beta.customer.call, { method: 'GET', url: '/api/credit' })).data;
    expect(foreign.balance.amount).toBe(0);
    expect(foreign.entries).toEqual([]);
  });
});

describe('the ledger', () => {
  it('is insert-only', async () => {
    await expect(sql`update credit_ledger set amount = 1000000`.execute(t.db)).rejects.toThrow(/insert-only/);
    await expect(
      sql`update credit_ledger set actor_id = ${alpha.customer.user.id} where actor_id is not null`.execute(t.db),
    ).rejects.toThrow(/insert-only/);
  });

  it('lets a customer whose orders paid commission be deleted; the partner keeps the entry', async () => {
    const buyer = alpha.customers[2]!;
    const commission = await t.db
      .selectFrom('credit_ledger')
      .select(['id', 'amount'])
      .where('user_id', '=', alpha.admin.user.id)
      .where('type', '=', 'commission')
      .executeTakeFirstOrThrow();
    await t.db.deleteFrom('users').where('id', '=', buyer.user.id).execute();
    const kept = await t.db.selectFrom('credit_ledger').selectAll().where('id', '=', commission.id).executeTakeFirstOrThrow();
    expect(kept).toMatchObject({ amount: commission.amount, invoice_id: null });
    // And an admin who made manual entries can go too.
    await t.db.deleteFrom('users').where('id', '=', beta.admin.user.id).execute();
  });
});
