import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { AddressInfo } from 'node:net';
import { cartAnswerSchema, REALTIME_EVENTS, realtimeChannel, shopCartAnswerSchema } from '@berth/contracts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { callerFor, sessionFor, hostOf } from '../../../test/hosting.ts';
import { addToCart, ok, shopTenant } from '../../../test/shop.ts';

let t: TestApp;
let alpha: Awaited<ReturnType<typeof shopTenant>>;
let beta: Awaited<ReturnType<typeof shopTenant>>;
let url: string;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  alpha = await shopTenant(t, 'alpha', { customers: 3, hostPurchases: true });
  beta = await shopTenant(t, 'beta');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const cartOf = async (call = alpha.customer.call) => shopCartAnswerSchema.parse(await ok(call, { method: 'GET', url: '/api/cart' })).data;
const plans = async () =>
  (await ok(alpha.customer.call, { method: 'GET', url: '/api/shop/products' })).data.plans as { id: number; title: string }[];

describe('the cart', () => {
  it('holds hosting, registration, transfer and renewal rows priced from the catalogue, with totals', async () => {
    const [starter] = await plans();
    expect((await addToCart(alpha.customer.call, { kind: 'hosting', plan_id: starter?.id, period_months: 12 })).statusCode).toBe(200);
    expect((await addToCart(alpha.customer.call, { kind: 'domain_register', name: 'My-New-Shop.com', period_months: 24 })).statusCode).toBe(
      200,
    );
    expect((await addToCart(alpha.customer.call, { kind: 'domain_transfer', name: 'moving-in.eu' })).statusCode).toBe(200);
    const owned = await ok(alpha.customer.call, { method: 'POST', url: '/api/host/domain', payload: { name: 'already-mine.cz' } }, 201);
    const renew = await addToCart(alpha.customer.call, { kind: 'domain_renew', domain_id: owned.data.id, period_months: 12 });
    expect(renew.statusCode, renew.body).toBe(200);
    expect(renew.json().message).toBe('Added to your cart.');

    const cart = await cartOf();
    expect(cart.rows.map((row) => [row.kind, row.title, row.period_months, row.price.net.amount, row.available])).toEqual([
      ['hosting', 'Hosting Starter', 12, 3900, true],
      ['domain_register', 'Domain registration my-new-shop.com', 24, 2580, true],
      ['domain_transfer', 'Domain transfer moving-in.eu', 12, 690, true],
      ['domain_renew', 'Domain renewal already-mine.cz', 12, 990, true],
    ]);
    expect(cart.rows[0]?.periods).toEqual([1, 12, 24]);
    expect(cart.rows[2]?.periods).toEqual([12]);
    expect(cart.rows[0]?.price_formatted).toBe('€47.19');
    expect(cart.totals.subtotal.amount).toBe(3900 + 2580 + 690 + 990);
    expect(cart.totals.vat.amount).toBe(Math.round(8160 * 0.21));
    expect(cart.totals.gross.amount).toBe(8160 + 1714);
    expect(cart.promo).toBeNull();
    // The shell's narrower schema still reads the answer (badge = rows).
    expect(cartAnswerSchema.parse(await ok(alpha.customer.call, { method: 'GET', url: '/api/cart' })).data.rows).toHaveLength(4);
  });

  it('is the same on another device and after logging out and in again', async () => {
    const before = await cartOf();
    const otherDevice = await callerFor(t, alpha.customer.user);
    expect(await cartOf(otherDevice)).toEqual(before);
    expect((await alpha.customer.call({ method: 'POST', url: '/api/logout' })).statusCode).toBe(200);
    const again = await callerFor(t, alpha.customer.user);
    expect((await cartOf(again)).rows.map((r) => r.id)).toEqual(before.rows.map((r) => r.id));
    alpha.customer.call = again;
  });

  it('changes the period of a row and reprices it; refuses a period the product has not', async () => {
    const cart = await cartOf();
    const hosting = cart.rows.find((row) => row.kind === 'hosting');
    const monthly = await ok(alpha.customer.call, {
      method: 'PATCH',
      url: `/api/cart/items/${hosting?.id}`,
      payload: { period_months: 1 },
    });
    expect(monthly.data.rows.find((row: { id: number }) => row.id === hosting?.id).price.net.amount).toBe(390);
    const bad = await alpha.customer.call({ method: 'PATCH', url: `/api/cart/items/${hosting?.id}`, payload: { period_months: 5 } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.period_months).toEqual(['This period cannot be chosen for this item.']);
    const transfer = cart.rows.find((row) => row.kind === 'domain_transfer');
    expect(
      (await alpha.customer.call({ method: 'PATCH', url: `/api/cart/items/${transfer?.id}`, payload: { period_months: 24 } })).statusCode,
    ).toBe(422);
  });

  it('follows price changes of the catalogue', async () => {
    const hosting = (await cartOf()).rows.find((row) => row.kind === 'hosting');
    await ok(alpha.admin.call, { method: 'PATCH', url: `/api/system/shop/plans/${hosting?.plan_id}`, payload: { monthly_price: 490 } });
    expect((await cartOf()).rows.find((row) => row.id === hosting?.id)?.price.net.amount).toBe(490);
    await ok(alpha.admin.call, { method: 'PATCH', url: `/api/system/shop/plans/${hosting?.plan_id}`, payload: { active: false } });
    expect((await cartOf()).rows.find((row) => row.id === hosting?.id)?.available).toBe(false);
    await ok(alpha.admin.call, {
      method: 'PATCH',
      url: `/api/system/shop/plans/${hosting?.plan_id}`,
      payload: { active: true, monthly_price: 390 },
    });
  });

  it('refuses what cannot be bought, with the reason on the field', async () => {
    const [starter] = await plans();
    const betaPlan = (await ok(beta.customer.call, { method: 'GET', url: '/api/shop/products' })).data.plans[0];
    const cases: [Record<string, unknown>, string, string][] = [
      [{ kind: 'hosting', plan_id: betaPlan.id }, 'plan_id', 'This hosting plan is not available.'],
      [{ kind: 'hosting', plan_id: starter?.id, period_months: 36 }, 'period_months', 'This period cannot be chosen for this item.'],
      [{ kind: 'domain_register', name: 'already-mine.cz' }, 'name', 'This domain already exists in the panel.'],
      [{ kind: 'domain_register', name: 'example.museum' }, 'name', 'Domains ending in .museum are not sold here.'],
      [
        { kind: 'domain_register', name: 'www.sub.example.com' },
        'name',
        'Enter a domain you can register: a name and its ending, e.g. example.com.',
      ],
      [{ kind: 'domain_register', name: 'MY-NEW-SHOP.COM' }, 'name', 'This domain is already in your cart.'],
      [{ kind: 'domain_register', name: 'bad name' }, 'name', expect.stringContaining('valid domain name') as unknown as string],
    ];
    for (const [payload, field, text] of cases) {
      const answer = await addToCart(alpha.customer.call, payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(422);
      expect(answer.json().errors[field]).toEqual([text]);
    }
  });

  it('answers 404 for rows and domains of someone else', async () => {
    const other = alpha.customers[1];
    const foreignDomain = await ok(other!.call, { method: 'POST', url: '/api/host/domain', payload: { name: 'not-yours.com' } }, 201);
    expect((await addToCart(alpha.customer.call, { kind: 'domain_renew', domain_id: foreignDomain.data.id })).statusCode).toBe(404);
    const mine = (await cartOf()).rows[0];
    expect((await other!.call({ method: 'DELETE', url: `/api/cart/items/${mine?.id}` })).statusCode).toBe(404);
    expect((await other!.call({ method: 'PATCH', url: `/api/cart/items/${mine?.id}`, payload: { period_months: 12 } })).statusCode).toBe(
      404,
    );
    expect((await cartOf()).rows).toHaveLength(4);
    // An admin may renew a customer's domain of their tenant for them.
    expect((await addToCart(alpha.admin.call, { kind: 'domain_renew', domain_id: foreignDomain.data.id })).statusCode).toBe(200);
    expect((await addToCart(beta.admin.call, { kind: 'domain_renew', domain_id: foreignDomain.data.id })).statusCode).toBe(404);
  });

  it('removes a row', async () => {
    const row = (await cartOf()).rows.find((r) => r.kind === 'domain_transfer');
    const answer = await ok(alpha.customer.call, { method: 'DELETE', url: `/api/cart/items/${row?.id}` });
    expect(answer.message).toBe('Removed from your cart.');
    expect(answer.data.rows.map((r: { id: number }) => r.id)).not.toContain(row?.id);
    expect((await alpha.customer.call({ method: 'DELETE', url: `/api/cart/items/${row?.id}` })).statusCode).toBe(404);
  });
});

describe('promo codes in the cart', () => {
  const createPromo = async (payload: Record<string, unknown>) =>
    (await ok(alpha.admin.call, { method: 'POST', url: '/api/system/partner/promo', payload }, 201)).data as { id: number; code: string };
  const apply = (code: string, call = alpha.customer.call) => call({ method: 'POST', url: '/api/cart/promo', payload: { code } });

  it('explains why a code cannot be used', async () => {
    const now = t.clock.now().getTime();
    await createPromo({ code: 'LATER', kind: 'percent', value: 10, valid_from: new Date(now + 2 * DAY).toISOString() });
    await createPromo({ code: 'GONE', kind: 'percent', value: 10, valid_until: new Date(now - DAY).toISOString() });
    await createPromo({ code: 'OFF', kind: 'percent', value: 10, active: false });
    await createPromo({ code: 'HOSTONLY', kind: 'percent', value: 10, kinds: ['domain_transfer'] });
    const reasons: [string, string][] = [
      ['NOPE', 'This promo code does not exist.'],
      ['LATER', 'This promo code is valid from Nov 3, 2026.'],
      ['GONE', 'This promo code expired on Oct 31, 2026.'],
      ['OFF', 'This promo code is not active.'],
      ['HOSTONLY', 'This promo code does not apply to anything in your cart.'],
    ];
    for (const [code, text] of reasons) {
      const answer = await apply(code);
      expect(answer.statusCode, code).toBe(422);
      expect(answer.json().errors.code).toEqual([text]);
    }
  });

  it('applies a code case-insensitively, discounts only the qualifying rows, and removes it', async () => {
    await createPromo({ code: 'DOMAINS20', kind: 'percent', value: 20, kinds: ['domain_register', 'domain_renew'], tlds: ['com'] });
    const answer = await ok(alpha.customer.call, { method: 'POST', url: '/api/cart/promo', payload: { code: 'domains20' } });
    expect(answer.message).toBe('The promo code DOMAINS20 has been applied.');
    const cart = shopCartAnswerSchema.parse(answer).data;
    expect(cart.promo).toEqual({ code: 'DOMAINS20', label: '20%', problem: null });
    const discounted = cart.rows.filter((row) => row.discount.amount > 0).map((row) => [row.domain_name, row.discount.amount]);
    expect(discounted).toEqual([['my-new-shop.com', 516]]);
    expect(cart.totals.discount.amount).toBe(516);
    expect(cart.totals.net.amount).toBe(cart.totals.subtotal.amount - 516);

    const removed = await ok(alpha.customer.call, { method: 'DELETE', url: '/api/cart/promo' });
    expect(removed.data.promo).toBeNull();
    expect(removed.data.totals.discount.amount).toBe(0);
  });

  it('shows an applied code that expired meanwhile, without discount', async () => {
    const until = new Date(t.clock.now().getTime() + DAY).toISOString();
    await createPromo({ code: 'SHORT', kind: 'fixed', value: 500, valid_until: until });
    await ok(alpha.customer.call, { method: 'POST', url: '/api/cart/promo', payload: { code: 'SHORT' } });
    expect((await cartOf()).totals.discount.amount).toBe(500);
    t.clock.advance(2 * DAY);
    const cart = await cartOf();
    expect(cart.totals.discount.amount).toBe(0);
    expect(cart.promo?.problem).toMatch(/^This promo code expired on/);
    t.clock.advance(-2 * DAY);
    await ok(alpha.customer.call, { method: 'DELETE', url: '/api/cart/promo' });
  });

  it('does not know codes of another tenant', async () => {
    const answer = await apply('DOMAINS20', beta.customer.call);
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors.code).toEqual(['This promo code does not exist.']);
  });
});

describe('realtime', () => {
  it('emits cart-updated on the user cart channel for every change', async () => {
    const user = alpha.customers[2]!;
    const cookie = await sessionFor(t, user.user);
    const socket: Socket = connect(url, {
      transports: ['websocket'],
      extraHeaders: { cookie, host: await hostOf(t, user.user.tenant_id) },
      reconnection: false,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on('connect', () => resolve());
        socket.on('connect_error', reject);
      });
      expect(await socket.timeout(5000).emitWithAck('subscribe', realtimeChannel.cart(user.user.id))).toEqual({ ok: true });
      let events = 0;
      socket.on(REALTIME_EVENTS.cartUpdated, () => (events += 1));
      const waitFor = async (count: number) => {
        for (let i = 0; i < 100 && events < count; i++) await new Promise((resolve) => setTimeout(resolve, 20));
        expect(events).toBe(count);
      };
      const [starter] = await plans();
      const added = await ok(user.call, { method: 'POST', url: '/api/cart/items', payload: { kind: 'hosting', plan_id: starter?.id } });
      await waitFor(1);
      const id = added.data.rows[0].id;
      await ok(user.call, { method: 'PATCH', url: `/api/cart/items/${id}`, payload: { period_months: 1 } });
      await waitFor(2);
      await ok(user.call, { method: 'DELETE', url: `/api/cart/items/${id}` });
      await waitFor(3);
      // A refused change emits nothing.
      expect((await user.call({ method: 'DELETE', url: `/api/cart/items/${id}` })).statusCode).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(events).toBe(3);
    } finally {
      socket.disconnect();
    }
  });
});
