import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addUser, superAdmin, type Caller } from '../../../test/hosting.ts';
import { giveCredit, ok, shopTenant } from '../../../test/shop.ts';

/* Admins reading another user's credit: GET /api/system/credit/{userId} and its CSV export. */

let t: TestApp;
let alpha: Awaited<ReturnType<typeof shopTenant>>;
let beta: Awaited<ReturnType<typeof shopTenant>>;
let root: Awaited<ReturnType<typeof superAdmin>>;
const DAY = 24 * 60 * 60 * 1000;
let start: Date;

const amounts = (answer: { data: { entries: { amount: { amount: number } }[] } }) =>
  answer.data.entries.map((entry) => entry.amount.amount);
const ledger = (call: Caller, userId: number, query: Record<string, string> = {}) =>
  call({ method: 'GET', url: `/api/system/credit/${userId}`, query });
const csv = (call: Caller, userId: number, query: Record<string, string> = {}) =>
  call({ method: 'GET', url: `/api/system/credit/${userId}/export.csv`, query });

beforeAll(async () => {
  t = await createTestApp();
  alpha = await shopTenant(t, 'alpha', { customers: 2 });
  beta = await shopTenant(t, 'beta');
  root = await superAdmin(t);
  // Five manual credits on five days, then one debit, for alpha's first customer.
  start = t.clock.now();
  for (let day = 1; day <= 5; day++) {
    t.clock.advance(DAY);
    await giveCredit(alpha.admin.call, alpha.customer.user.id, day * 100);
  }
  t.clock.advance(DAY);
  await ok(
    alpha.admin.call,
    {
      method: 'POST',
      url: '/api/system/credit/adjustments',
      payload: { user_id: alpha.customer.user.id, amount: -250, description: '=SUM(A1:A9) correction' },
    },
    201,
  );
  await giveCredit(beta.admin.call, beta.customer.user.id, 4200);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('GET /api/system/credit/{userId}', () => {
  it("shows a host admin the balance and ledger of their tenant's customer, newest first", async () => {
    const answer = await ok(alpha.admin.call, { method: 'GET', url: `/api/system/credit/${alpha.customer.user.id}` });
    expect(answer.data.balance).toMatchObject({ amount: 1250, currency: 'EUR', formatted: '€12.50' });
    expect(answer.data.top_up).toMatchObject({ min: { amount: 1000 }, max: { amount: 1000000 } });
    expect(amounts(answer)).toEqual([-250, 500, 400, 300, 200, 100]);
    expect(answer.data.entries[0]).toMatchObject({ type: 'manual', description: '=SUM(A1:A9) correction', invoice_id: null });
    expect(answer.next_cursor).toBeNull();
    // Exactly what the customer sees of their own credit.
    const own = await ok(alpha.customer.call, { method: 'GET', url: '/api/credit' });
    expect(answer).toEqual(own);
  });

  it("shows a super admin any user's ledger, of any tenant", async () => {
    const alphaAnswer = await ok(root.call, { method: 'GET', url: `/api/system/credit/${alpha.customer.user.id}` });
    expect(alphaAnswer.data.balance.amount).toBe(1250);
    const betaAnswer = await ok(root.call, { method: 'GET', url: `/api/system/credit/${beta.customer.user.id}` });
    expect(betaAnswer.data.balance.amount).toBe(4200);
    expect(amounts(betaAnswer)).toEqual([4200]);
    // A host admin is a user too, and one without a ledger has a zero balance.
    const admin = await ok(root.call, { method: 'GET', url: `/api/system/credit/${beta.admin.user.id}` });
    expect(admin.data).toMatchObject({ balance: { amount: 0 }, entries: [] });
  });

  it('answers a host admin 404 for users of another tenant and for super admins, like an unknown id', async () => {
    const foreign = await ledger(beta.admin.call, alpha.customer.user.id);
    expect(foreign.statusCode).toBe(404);
    const unknown = await ledger(beta.admin.call, 2_000_000_000);
    expect(unknown.statusCode).toBe(404);
    expect(foreign.json()).toEqual(unknown.json());
    expect((await ledger(alpha.admin.call, root.user.id)).statusCode).toBe(404);
    expect((await csv(beta.admin.call, alpha.customer.user.id)).statusCode).toBe(404);
    // Nothing of the foreign ledger in the answer.
    expect(foreign.body).not.toContain('correction');
  });

  it('answers a customer 403, for others and for themselves, before looking at the id', async () => {
    for (const userId of [alpha.customers[1]!.user.id, alpha.customer.user.id, beta.customer.user.id, 2_000_000_000]) {
      expect((await ledger(alpha.customer.call, userId)).statusCode).toBe(403);
      expect((await csv(alpha.customer.call, userId)).statusCode).toBe(403);
    }
    // Like the other admin areas.
    expect((await alpha.customer.call({ method: 'GET', url: '/api/system/customers' })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/system/credit/${alpha.customer.user.id}` })).statusCode).toBe(401);
  });

  it('filters by type and date range and walks keyset pages, like /api/credit', async () => {
    const userId = alpha.customer.user.id;
    const pages: number[][] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, string> = {
        type: 'manual',
        limit: '2',
        from: new Date(start.getTime() + 2 * DAY).toISOString().slice(0, 10),
      };
      if (cursor) query.cursor = cursor;
      const answer = await ok(alpha.admin.call, { method: 'GET', url: `/api/system/credit/${userId}`, query });
      pages.push(amounts(answer));
      cursor = answer.next_cursor;
    } while (cursor);
    expect(pages).toEqual([[-250, 500], [400, 300], [200]]);
    const day3 = new Date(start.getTime() + 3 * DAY).toISOString().slice(0, 10);
    expect(amounts(await ok(root.call, { method: 'GET', url: `/api/system/credit/${userId}`, query: { from: day3, to: day3 } }))).toEqual([
      300,
    ]);
    expect(
      amounts(await ok(alpha.admin.call, { method: 'GET', url: `/api/system/credit/${userId}`, query: { type: 'purchase' } })),
    ).toEqual([]);
  });

  it('answers bad input with 422 and per-field errors', async () => {
    const bad = await ledger(alpha.admin.call, alpha.customer.user.id, { type: 'gift', limit: '0', from: 'yesterday' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['from', 'limit', 'type']);
    expect((await ledger(alpha.admin.call, alpha.customer.user.id, { cursor: 'garbage' })).statusCode).toBe(422);
    expect((await alpha.admin.call({ method: 'GET', url: '/api/system/credit/abc' })).statusCode).toBe(422);
    expect((await alpha.admin.call({ method: 'GET', url: '/api/system/credit/0' })).statusCode).toBe(422);
  });

  it('audits nothing for reads', async () => {
    const before = await t.db
      .selectFrom('audit_log')
      .select(({ fn }) => fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    await ok(alpha.admin.call, { method: 'GET', url: `/api/system/credit/${alpha.customer.user.id}` });
    expect((await csv(root.call, alpha.customer.user.id)).statusCode).toBe(200);
    const after = await t.db
      .selectFrom('audit_log')
      .select(({ fn }) => fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe('GET /api/system/credit/{userId}/export.csv', () => {
  it("exports the user's rows with the filters, formulas defused", async () => {
    const answer = await csv(alpha.admin.call, alpha.customer.user.id);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="credit-${alpha.customer.user.id}.csv"`);
    const lines = answer.body.trim().split('\r\n');
    expect(lines[0]).toBe('date,type,description,amount,currency,amount_formatted,invoice_id');
    expect(lines.slice(1).map((line) => line.split(',')[3])).toEqual(['-2.50', '5.00', '4.00', '3.00', '2.00', '1.00']);
    expect(lines[1]).toMatch(/^[0-9T:.-]+Z,manual,"'=SUM\(A1:A9\) correction",-2\.50,EUR,"'-€2\.50",$/);
    expect(lines[2]).toMatch(/^[0-9T:.-]+Z,manual,"test credit",5\.00,EUR,"€5\.00",$/);
    // The same bytes as the customer's own export.
    expect(answer.body).toBe((await alpha.customer.call({ method: 'GET', url: '/api/credit/export.csv' })).body);

    const day3 = new Date(start.getTime() + 3 * DAY).toISOString().slice(0, 10);
    const filtered = (await csv(root.call, alpha.customer.user.id, { type: 'manual', from: day3, to: day3 })).body.trim().split('\r\n');
    expect(filtered).toHaveLength(2);
    expect(filtered[1]).toContain(',3.00,EUR,');
    const none = (await csv(alpha.admin.call, alpha.customer.user.id, { type: 'refund' })).body.trim().split('\r\n');
    expect(none).toEqual(['date,type,description,amount,currency,amount_formatted,invoice_id']);
    expect((await csv(alpha.admin.call, alpha.customer.user.id, { type: 'nope' })).statusCode).toBe(422);
  });

  it('exports only that user: another customer of the tenant has their own rows', async () => {
    const other = alpha.customers[1]!;
    await giveCredit(alpha.admin.call, other.user.id, 777);
    const lines = (await csv(alpha.admin.call, other.user.id)).body.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',7.77,EUR,');
  });
});

describe('POST /api/system/credit/adjustments: whose credit', () => {
  const adjust = (call: Caller, userId: number, amount = 15_000) =>
    call({ method: 'POST', url: '/api/system/credit/adjustments', payload: { user_id: userId, amount, description: 'self service' } });

  it('refuses a host admin crediting themselves (403, audited, no ledger entry) and spending it', async () => {
    const answer = await adjust(alpha.admin.call, alpha.admin.user.id);
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toMatch(/only/);
    const entries = await t.db.selectFrom('credit_ledger').select('id').where('user_id', '=', alpha.admin.user.id).execute();
    expect(entries).toEqual([]);
    const refused = await t.db
      .selectFrom('audit_log')
      .select(['user_id', 'target_id', 'data'])
      .where('action', '=', 'credit.adjust_refused')
      .where('user_id', '=', alpha.admin.user.id)
      .execute();
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ target_id: String(alpha.admin.user.id), data: { reason: 'own_account' } });
    const checkout = await alpha.admin.call({ method: 'GET', url: '/api/credit' });
    expect(checkout.json().data.balance.amount).toBe(0);
  });

  it("refuses another admin of the same tenant, hides other tenants' users, and the super admin's own account", async () => {
    const second = await addUser(t, alpha.tenantId, 'second-admin@alpha.test', 'host_admin');
    expect((await adjust(alpha.admin.call, second.user.id)).statusCode).toBe(403);
    expect((await adjust(alpha.admin.call, beta.customer.user.id)).statusCode).toBe(404);
    expect((await adjust(alpha.admin.call, root.user.id)).statusCode).toBe(404);
    expect((await adjust(root.call, root.user.id)).statusCode).toBe(403);
    // 30 at once change nothing either.
    const burst = await Promise.all(Array.from({ length: 30 }, () => adjust(alpha.admin.call, alpha.admin.user.id, 100)));
    expect(new Set(burst.map((answer) => answer.statusCode))).toEqual(new Set([403]));
    // Their customers still can be credited.
    expect((await adjust(alpha.admin.call, alpha.customers[1]!.user.id, 500)).statusCode).toBe(201);
  });
});
