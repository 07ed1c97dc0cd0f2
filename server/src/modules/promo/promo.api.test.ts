import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { superAdmin } from '../../../test/hosting.ts';
import { addToCart, checkout, giveCredit, ok, shopTenant } from '../../../test/shop.ts';

let t: TestApp;
let fleet: Awaited<ReturnType<typeof shopTenant>>;
let plain: Awaited<ReturnType<typeof shopTenant>>;
const DAY = 24 * 60 * 60 * 1000;
const PARALLEL = 50;

beforeAll(async () => {
  t = await createTestApp();
  fleet = await shopTenant(t, 'fleet', { customers: PARALLEL, hostPurchases: true });
  plain = await shopTenant(t, 'plain');
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const create = (payload: Record<string, unknown>, call = fleet.admin.call) =>
  call({ method: 'POST', url: '/api/system/partner/promo', payload });

describe('promo code administration (/api/system/partner/promo)', () => {
  it('lets the host admin of a host_purchases tenant create, list, change and delete codes, audited', async () => {
    const created = await create({
      code: 'spring-10',
      kind: 'percent',
      value: 10,
      max_uses: 100,
      once_per_customer: true,
      valid_until: '2027-03-31',
    });
    expect(created.statusCode, created.body).toBe(201);
    const promo = created.json().data;
    expect(promo).toMatchObject({
      code: 'SPRING-10',
      kind: 'percent',
      value: 10,
      label: '10%',
      uses: 0,
      max_uses: 100,
      once_per_customer: true,
      valid_until: '2027-03-31T00:00:00.000Z',
      kinds: [],
      active: true,
    });
    expect(created.json().message).toBe('The promo code SPRING-10 has been created.');
    const list = await ok(fleet.admin.call, { method: 'GET', url: '/api/system/partner/promo' });
    expect(list.data.map((p: { code: string }) => p.code)).toEqual(['SPRING-10']);
    const changed = await ok(fleet.admin.call, {
      method: 'PATCH',
      url: `/api/system/partner/promo/${promo.id}`,
      payload: { kind: 'fixed', value: 250, active: false },
    });
    expect(changed.data).toMatchObject({ kind: 'fixed', value: 250, label: '€2.50', active: false });
    const deleted = await ok(fleet.admin.call, { method: 'DELETE', url: `/api/system/partner/promo/${promo.id}` });
    expect(deleted.message).toBe('The promo code SPRING-10 has been deleted.');
    const audit = await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_type', '=', 'promo')
      .where('target_id', '=', String(promo.id))
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['promo.created', 'promo.updated', 'promo.deleted']);
  });

  it('is closed to customers and across tenants; a tenant selling through Berth’s shop manages its own', async () => {
    expect((await create({ code: 'NOPE1', kind: 'percent', value: 5 }, fleet.customer.call)).statusCode).toBe(403);
    expect((await create({ code: 'NOPE1', kind: 'percent', value: 5 }, plain.customer.call)).statusCode).toBe(403);
    // The policy table (modules/policy/table.ts): every tenant that sells manages its codes.
    expect((await create({ code: 'PLAIN5', kind: 'percent', value: 5 }, plain.admin.call)).statusCode).toBe(201);
    const plainCodes = await ok(plain.admin.call, { method: 'GET', url: '/api/system/partner/promo' });
    expect(plainCodes.data.map((p: { code: string }) => p.code)).toEqual(['PLAIN5']);
    const own = (await create({ code: 'MINE', kind: 'percent', value: 5 })).json().data;
    const root = await superAdmin(t);
    // A super admin works on the tenant of the host they use; another tenant's code is 404 there.
    expect(
      (
        await root.call({
          method: 'PATCH',
          url: `/api/system/partner/promo/${own.id}`,
          headers: { host: 'plain.test' },
          payload: { value: 6 },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await root.call({
          method: 'PATCH',
          url: `/api/system/partner/promo/${own.id}`,
          headers: { host: 'fleet.test' },
          payload: { value: 6 },
        })
      ).statusCode,
    ).toBe(200);
    expect((await create({ code: 'ROOTS', kind: 'percent', value: 5 }, root.call)).statusCode).toBe(201);
  });

  it('validates codes: unique per tenant, percent at most 100, a window that ends after it starts, known plans', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ code: 'mine', kind: 'percent', value: 5 }, 'code', 'A promo code with this name already exists.'],
      [{ code: 'BIG', kind: 'percent', value: 101 }, 'value', 'A percentage cannot be more than 100.'],
      [
        { code: 'WINDOW', kind: 'fixed', value: 100, valid_from: '2027-01-02', valid_until: '2027-01-01' },
        'valid_until',
        'The end of the validity must be after its start.',
      ],
      [{ code: 'PLANS', kind: 'fixed', value: 100, plan_ids: [999999] }, 'plan_ids', 'This value is not valid.'],
      [{ code: 'a b', kind: 'fixed', value: 100 }, 'code', 'This value is not valid.'],
    ];
    for (const [payload, field, text] of cases) {
      const answer = await create(payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(422);
      expect(answer.json().errors[field]).toEqual([text]);
    }
  });
});

describe('claiming promo codes at checkout', () => {
  it(`gives the discount to exactly 10 of ${PARALLEL} parallel checkouts of a 10-use code`, async () => {
    await create({ code: 'TENONLY', kind: 'percent', value: 50, max_uses: 10 });
    for (const customer of fleet.customers) {
      await giveCredit(fleet.admin.call, customer.user.id, 10_000);
      expect((await addToCart(customer.call, { kind: 'domain_register', name: `rush-${customer.user.id}.com` })).statusCode).toBe(200);
      await ok(customer.call, { method: 'POST', url: '/api/cart/promo', payload: { code: 'TENONLY' } });
    }
    const answers = await Promise.all(fleet.customers.map((customer, i) => checkout(customer.call, 'credit', `rush-key-${i}`)));
    const paid = answers.filter((a) => a.statusCode === 201);
    expect(paid).toHaveLength(10);
    for (const answer of paid)
      expect(answer.json().data.invoice).toMatchObject({
        promo_code: 'TENONLY',
        totals: { discount: { amount: 645 }, net: { amount: 645 } },
      });
    const refused = answers.filter((a) => a.statusCode === 422);
    expect(refused).toHaveLength(PARALLEL - 10);
    for (const answer of refused) expect(answer.json().errors.code).toEqual(['This promo code has been used up.']);

    const promo = await t.db.selectFrom('promo_codes').selectAll().where('code', '=', 'TENONLY').executeTakeFirstOrThrow();
    expect(promo.uses).toBe(10);
    expect(await t.db.selectFrom('promo_redemptions').select('id').where('promo_id', '=', promo.id).execute()).toHaveLength(10);
    expect(await t.db.selectFrom('orders').select('id').where('promo_id', '=', promo.id).execute()).toHaveLength(10);
    // The refused customers keep their carts and can buy without the code.
    const loser = fleet.customers[answers.findIndex((a) => a.statusCode === 422)]!;
    await ok(loser.call, { method: 'DELETE', url: '/api/cart/promo' });
    expect((await checkout(loser.call, 'credit', 'after-the-rush')).statusCode).toBe(201);
  });

  it('releases the claim when the checkout fails', async () => {
    await create({ code: 'ONESHOT', kind: 'fixed', value: 300, max_uses: 1 });
    const buyer = fleet.customers[0]!;
    await ok(buyer.call, { method: 'POST', url: '/api/cart/items', payload: { kind: 'domain_register', name: 'release-me.com' } });
    await ok(buyer.call, { method: 'POST', url: '/api/cart/promo', payload: { code: 'ONESHOT' } });
    // Drain the buyer's credit so the checkout fails after claiming the code.
    const left = (await ok(buyer.call, { method: 'GET', url: '/api/credit' })).data.balance.amount;
    await ok(
      fleet.admin.call,
      { method: 'POST', url: '/api/system/credit/adjustments', payload: { user_id: buyer.user.id, amount: -left, description: 'drain' } },
      201,
    );
    const failed = await checkout(buyer.call, 'credit', 'release-1');
    expect(failed.statusCode).toBe(422);
    expect(failed.json().errors.payment).toBeDefined();
    const promo = await t.db.selectFrom('promo_codes').select(['id', 'uses']).where('code', '=', 'ONESHOT').executeTakeFirstOrThrow();
    expect(promo.uses).toBe(0);
    expect(await t.db.selectFrom('promo_redemptions').select('id').where('promo_id', '=', promo.id).execute()).toEqual([]);
    await giveCredit(fleet.admin.call, buyer.user.id, 5000);
    const paid = await checkout(buyer.call, 'credit', 'release-2');
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json().data.invoice.totals.discount.amount).toBe(300);
  });

  it('lets a once-per-customer code be used once by each customer', async () => {
    await create({ code: 'WELCOME', kind: 'percent', value: 10, once_per_customer: true });
    const buyer = fleet.customers[1]!;
    await giveCredit(fleet.admin.call, buyer.user.id, 10_000);
    await ok(buyer.call, { method: 'POST', url: '/api/cart/items', payload: { kind: 'domain_register', name: 'welcome-1.com' } });
    await ok(buyer.call, { method: 'POST', url: '/api/cart/promo', payload: { code: 'WELCOME' } });
    expect((await checkout(buyer.call, 'credit', 'welcome-a')).statusCode).toBe(201);
    await ok(buyer.call, { method: 'POST', url: '/api/cart/items', payload: { kind: 'domain_register', name: 'welcome-2.com' } });
    const again = await buyer.call({ method: 'POST', url: '/api/cart/promo', payload: { code: 'WELCOME' } });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.code).toEqual(['You have already used this promo code.']);
    const other = fleet.customers[2]!;
    await ok(other.call, { method: 'POST', url: '/api/cart/items', payload: { kind: 'domain_register', name: 'welcome-3.com' } });
    expect((await other.call({ method: 'POST', url: '/api/cart/promo', payload: { code: 'WELCOME' } })).statusCode).toBe(200);
  });

  it('refuses at checkout a code whose window closed after it was applied', async () => {
    const until = new Date(t.clock.now().getTime() + DAY).toISOString();
    await create({ code: 'TODAY', kind: 'fixed', value: 100, valid_until: until });
    const buyer = fleet.customers[2]!;
    await giveCredit(fleet.admin.call, buyer.user.id, 10_000);
    await ok(buyer.call, { method: 'POST', url: '/api/cart/promo', payload: { code: 'TODAY' } });
    t.clock.advance(2 * DAY);
    const answer = await checkout(buyer.call, 'credit', 'today-late');
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors.code[0]).toMatch(/^This promo code expired on/);
    t.clock.advance(-2 * DAY);
  });
});
