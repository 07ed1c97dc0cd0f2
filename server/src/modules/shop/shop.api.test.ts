import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addUser, callerFor, superAdmin } from '../../../test/hosting.ts';
import { ok, shopTenant } from '../../../test/shop.ts';

let t: TestApp;
let alpha: Awaited<ReturnType<typeof shopTenant>>;
let beta: Awaited<ReturnType<typeof shopTenant>>;

beforeAll(async () => {
  t = await createTestApp();
  alpha = await shopTenant(t, 'alpha');
  beta = await shopTenant(t, 'beta');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('GET /api/shop/products', () => {
  it('answers the default catalogue of a new tenant, net, VAT and gross in the user language', async () => {
    const { data } = await ok(alpha.customer.call, { method: 'GET', url: '/api/shop/products' });
    expect(data.currency).toBe('EUR');
    expect(data.vat_rate).toBe(21);
    expect(data.plans.map((p: { title: string }) => p.title)).toEqual(['Starter', 'Business', 'Pro']);
    expect(data.plans[0].monthly).toEqual({
      net: { amount: 390, currency: 'EUR', formatted: '€3.90' },
      vat: { amount: 82, currency: 'EUR', formatted: '€0.82' },
      gross: { amount: 472, currency: 'EUR', formatted: '€4.72' },
    });
    const com = data.tlds.find((tld: { tld: string }) => tld.tld === 'com');
    expect(com.register.net.amount).toBe(1290);
    expect(com.register.gross.amount).toBe(1561);
  });

  it('formats in German for a German user', async () => {
    await ok(alpha.customer.call, { method: 'PATCH', url: '/api/user/language', payload: { language: 'de' } });
    const { data } = await ok(alpha.customer.call, { method: 'GET', url: '/api/shop/products' });
    expect(data.plans[0].monthly.gross.formatted).toBe('4,72\u00a0€');
    await ok(alpha.customer.call, { method: 'PATCH', url: '/api/user/language', payload: { language: 'en' } });
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/shop/products' })).statusCode).toBe(401);
  });
});

describe('GET /api/shop/domain-check', () => {
  const check = async (name: string) =>
    (await ok(alpha.customer.call, { method: 'GET', url: '/api/shop/domain-check', query: { name } })).data;

  it('finds a free name with its TLD prices', async () => {
    const data = await check('Brand-New.com');
    expect(data).toMatchObject({ name: 'brand-new.com', text: 'brand-new.com', tld: 'com', available: true, reason: null });
    expect(data.price.register.net.amount).toBe(1290);
  });

  it('answers taken for a domain of the panel, in any tenant', async () => {
    await ok(beta.customer.call, { method: 'POST', url: '/api/host/domain', payload: { name: 'taken-name.eu' } }, 201);
    expect(await check('taken-name.eu')).toMatchObject({ available: false, reason: 'taken', tld: 'eu' });
  });

  it('answers unsupported_tld for an ending the tenant does not sell, and invalid for nonsense and subdomains', async () => {
    expect(await check('example.museum')).toMatchObject({ available: false, reason: 'unsupported_tld', price: null });
    expect(await check('not a domain')).toMatchObject({ available: false, reason: 'invalid' });
    expect(await check('www.example.com')).toMatchObject({ available: false, reason: 'invalid' });
  });

  it('accepts IDN and answers both spellings', async () => {
    expect(await check('bücher.de')).toMatchObject({ name: 'xn--bcher-kva.de', text: 'bücher.de', available: true });
  });
});

describe('catalogue administration (/api/system/shop)', () => {
  it('lets a host admin add, change and delete a plan of their tenant only, audited', async () => {
    const created = await ok(
      alpha.admin.call,
      {
        method: 'POST',
        url: '/api/system/shop/plans',
        payload: { title: 'Reseller', description: 'For agencies', monthly_price: 2990, yearly_price: 29900 },
      },
      201,
    );
    expect(created.data).toMatchObject({ title: 'Reseller', active: true, monthly: { net: { amount: 2990 } } });
    const id = created.data.id;
    // The customer sees it; the other tenant's customer does not.
    expect(
      (await ok(alpha.customer.call, { method: 'GET', url: '/api/shop/products' })).data.plans.map((p: { id: number }) => p.id),
    ).toContain(id);
    expect(
      (await ok(beta.customer.call, { method: 'GET', url: '/api/shop/products' })).data.plans.map((p: { id: number }) => p.id),
    ).not.toContain(id);
    // Another tenant's admin: 404, as for an unknown id.
    expect(
      (await beta.admin.call({ method: 'PATCH', url: `/api/system/shop/plans/${id}`, payload: { title: 'Hijacked' } })).statusCode,
    ).toBe(404);
    expect((await beta.admin.call({ method: 'DELETE', url: `/api/system/shop/plans/${id}` })).statusCode).toBe(404);

    const changed = await ok(alpha.admin.call, {
      method: 'PATCH',
      url: `/api/system/shop/plans/${id}`,
      payload: { active: false, yearly_price: 27900 },
    });
    expect(changed.data).toMatchObject({ active: false, yearly: { net: { amount: 27900 } } });
    expect(
      (await ok(alpha.customer.call, { method: 'GET', url: '/api/shop/products' })).data.plans.map((p: { id: number }) => p.id),
    ).not.toContain(id);
    expect(
      (await ok(alpha.admin.call, { method: 'GET', url: '/api/system/shop/catalogue' })).data.plans.map((p: { id: number }) => p.id),
    ).toContain(id);

    await ok(alpha.admin.call, { method: 'DELETE', url: `/api/system/shop/plans/${id}` });
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'tenant_id'])
      .where('target_type', '=', 'hosting_plan')
      .where('target_id', '=', String(id))
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['shop.plan_created', 'shop.plan_updated', 'shop.plan_deleted']);
    expect(audit.every((a) => a.tenant_id === alpha.tenantId)).toBe(true);
  });

  it('keeps customers out (403) and validates prices (422)', async () => {
    expect((await alpha.customer.call({ method: 'GET', url: '/api/system/shop/catalogue' })).statusCode).toBe(403);
    expect(
      (
        await alpha.customer.call({
          method: 'POST',
          url: '/api/system/shop/plans',
          payload: { title: 'x', monthly_price: 1, yearly_price: 1 },
        })
      ).statusCode,
    ).toBe(403);
    const bad = await alpha.admin.call({
      method: 'POST',
      url: '/api/system/shop/plans',
      payload: { title: '', monthly_price: -1, yearly_price: 1.5 },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['monthly_price', 'title', 'yearly_price']);
  });

  it('sells a new TLD once per tenant and changes its prices', async () => {
    const created = await ok(
      alpha.admin.call,
      {
        method: 'POST',
        url: '/api/system/shop/tlds',
        payload: { tld: 'Co.UK', register_price: 990, renew_price: 1090, transfer_price: 990 },
      },
      201,
    );
    expect(created.data.tld).toBe('co.uk');
    const again = await alpha.admin.call({
      method: 'POST',
      url: '/api/system/shop/tlds',
      payload: { tld: 'co.uk', register_price: 1, renew_price: 1, transfer_price: 1 },
    });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.tld).toEqual(['This domain ending already has prices.']);
    // The longest ending wins: example.co.uk is a .co.uk registration.
    const check = (await ok(alpha.customer.call, { method: 'GET', url: '/api/shop/domain-check', query: { name: 'example.co.uk' } })).data;
    expect(check).toMatchObject({ tld: 'co.uk', available: true });
    await ok(alpha.admin.call, { method: 'PATCH', url: `/api/system/shop/tlds/${created.data.id}`, payload: { renew_price: 1190 } });
    expect((await beta.admin.call({ method: 'DELETE', url: `/api/system/shop/tlds/${created.data.id}` })).statusCode).toBe(404);
    await ok(alpha.admin.call, { method: 'DELETE', url: `/api/system/shop/tlds/${created.data.id}` });
  });

  it('changes VAT, commission, top-up limits and the renewal days; min above max and days out of range are refused', async () => {
    const answer = await ok(alpha.admin.call, {
      method: 'PATCH',
      url: '/api/system/shop/settings',
      payload: { vat_rate: 19, commission_rate: 12.5, top_up_min: 500 },
    });
    expect(answer.data.settings).toEqual({
      currency: 'EUR',
      vat_rate: 19,
      commission_rate: 12.5,
      top_up_min: 500,
      top_up_max: 1_000_000,
      renew_days_before: 14,
      grace_days: 14,
    });
    const plan = (await ok(alpha.customer.call, { method: 'GET', url: '/api/shop/products' })).data.plans[0];
    expect(plan.monthly.vat.amount).toBe(74);
    const bad = await alpha.admin.call({ method: 'PATCH', url: '/api/system/shop/settings', payload: { top_up_min: 2_000_000 } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.top_up_min).toBeDefined();
    const days = await alpha.admin.call({
      method: 'PATCH',
      url: '/api/system/shop/settings',
      payload: { renew_days_before: 0, grace_days: 91 },
    });
    expect(days.statusCode).toBe(422);
    expect(Object.keys(days.json().errors).sort()).toEqual(['grace_days', 'renew_days_before']);
    const renewals = await ok(alpha.admin.call, {
      method: 'PATCH',
      url: '/api/system/shop/settings',
      payload: { renew_days_before: 30, grace_days: 0 },
    });
    expect(renewals.data.settings).toMatchObject({ renew_days_before: 30, grace_days: 0 });
    await ok(alpha.admin.call, {
      method: 'PATCH',
      url: '/api/system/shop/settings',
      payload: { vat_rate: 21, renew_days_before: 14, grace_days: 14 },
    });
  });

  it('lets a super admin manage the shop of the tenant whose host they use', async () => {
    const root = await superAdmin(t);
    const answer = await ok(root.call, { method: 'GET', url: '/api/system/shop/catalogue', headers: { host: 'beta.test' } });
    expect(answer.data.settings.commission_rate).toBe(10);
    const plan = await ok(
      root.call,
      {
        method: 'POST',
        url: '/api/system/shop/plans',
        headers: { host: 'beta.test' },
        payload: { title: 'Beta only', monthly_price: 100, yearly_price: 1000 },
      },
      201,
    );
    expect(
      (await t.db.selectFrom('hosting_plans').select('tenant_id').where('id', '=', plan.data.id).executeTakeFirstOrThrow()).tenant_id,
    ).toBe(beta.tenantId);
  });
});

describe('GET /api/shop/payment-options', () => {
  it('offers credit always, bank transfer only with a bank account', async () => {
    const { data } = await ok(alpha.customer.call, { method: 'GET', url: '/api/shop/payment-options' });
    expect(data).toContainEqual({ id: 'credit', enabled: true });
    expect(data).toContainEqual({ id: 'bank_transfer', enabled: false });
  });

  it('seeds the catalogue for a tenant-1 user too', async () => {
    const customer = await addUser(t, 1, 'someone@localhost');
    const { data } = await ok(customer.call, { method: 'GET', url: '/api/shop/products' });
    expect(data.tlds.length).toBeGreaterThan(3);
  });
});

describe('the demo (cli.ts demo)', () => {
  it('has something to sell, a welcome code and credit to try it with', async () => {
    const { loadDemoData } = await import('../demo/service.ts');
    const summary = await loadDemoData(t.db, t.services.hasher, t.clock, { password: 'demo password for everyone' });
    const hana = await t.db.selectFrom('users').selectAll().where('email', '=', `hana@${summary!.host}`).executeTakeFirstOrThrow();
    const call = await callerFor(t, hana);
    expect((await ok(call, { method: 'GET', url: '/api/shop/products' })).data.plans).toHaveLength(3);
    expect((await ok(call, { method: 'GET', url: '/api/credit' })).data.balance.formatted).toBe('€100.00');
    await ok(call, { method: 'POST', url: '/api/cart/items', payload: { kind: 'domain_register', name: 'demo-purchase.com' } });
    expect((await ok(call, { method: 'POST', url: '/api/cart/promo', payload: { code: 'welcome10' } })).data.totals.discount.amount).toBe(
      129,
    );
  });
});

describe('the OpenAPI document', () => {
  it('documents every shop, cart, credit, invoice and promo route', async () => {
    const answer = await t.app.inject({ url: '/api/docs/json' });
    expect(answer.statusCode).toBe(200);
    const paths = answer.json().paths as Record<string, Record<string, unknown>>;
    const routes = Object.entries(paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /api/shop/products',
        'GET /api/shop/domain-check',
        'GET /api/shop/payment-options',
        'GET /api/shop/subscriptions',
        'POST /api/shop/checkout',
        'GET /api/cart',
        'POST /api/cart/items',
        'PATCH /api/cart/items/{id}',
        'DELETE /api/cart/items/{id}',
        'POST /api/cart/promo',
        'DELETE /api/cart/promo',
        'GET /api/credit',
        'GET /api/credit/export.csv',
        'POST /api/credit/top-up',
        'POST /api/system/credit/adjustments',
        'GET /api/account/invoices',
        'GET /api/account/invoices/{id}',
        'GET /api/system/invoices',
        'GET /api/system/invoices/{id}',
        'GET /api/system/shop/catalogue',
        'PATCH /api/system/shop/settings',
        'POST /api/system/shop/plans',
        'PATCH /api/system/shop/plans/{id}',
        'DELETE /api/system/shop/plans/{id}',
        'POST /api/system/shop/tlds',
        'PATCH /api/system/shop/tlds/{id}',
        'DELETE /api/system/shop/tlds/{id}',
        'GET /api/system/partner/promo',
        'POST /api/system/partner/promo',
        'PATCH /api/system/partner/promo/{id}',
        'DELETE /api/system/partner/promo/{id}',
      ]),
    );
  });
});
