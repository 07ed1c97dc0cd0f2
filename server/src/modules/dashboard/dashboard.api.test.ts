import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveCredit } from '../../../test/shop.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, superAdmin, type Caller } from '../../../test/hosting.ts';
import type { UserRow } from '../users/queries.ts';

let t: TestApp;
let admin: { user: UserRow; call: Caller };
let alice: { user: UserRow; call: Caller };
let root: { user: UserRow; call: Caller };
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestApp();
  const tenantA = await addTenant(t, 'Alpha', 'alpha.test');
  const tenantB = await addTenant(t, 'Beta', 'beta.test');
  admin = await addUser(t, tenantA, 'admin@alpha.test', 'host_admin');
  alice = await addUser(t, tenantA, 'alice@alpha.test');
  const bob = await addUser(t, tenantA, 'bob@alpha.test');
  const carol = await addUser(t, tenantB, 'carol@beta.test');
  root = await superAdmin(t);
  const now = t.clock.now().getTime();
  const domains: [Caller, number, string, number | null][] = [
    [admin.call, alice.user.id, 'soon.example', 3],
    [admin.call, alice.user.id, 'later.example', 60],
    [admin.call, alice.user.id, 'gone.example', -2],
    [admin.call, alice.user.id, 'forever.example', null],
    [admin.call, bob.user.id, 'bob-soon.example', 10],
    [root.call, carol.user.id, 'carol.example', 5],
  ];
  for (const [call, owner, name, days] of domains) {
    const answer = await call({
      method: 'POST',
      url: '/api/host/domain',
      payload: { name, owner_id: owner, ...(days === null ? {} : { expire_at: new Date(now + days * DAY).toISOString() }) },
    });
    expect(answer.statusCode, answer.body).toBe(201);
  }
  const soon = (await alice.call({ method: 'GET', url: '/api/host/domain', query: { q: 'soon' } })).json().data[0].id;
  await alice.call({
    method: 'POST',
    url: `/api/host/domain/${soon}/users`,
    payload: { uid: 'info', password: 'mailbox passphrase 2026', password_confirmation: 'mailbox passphrase 2026' },
  });
  await t.db
    .insertInto('cart_items')
    .values({ tenant_id: tenantA, user_id: alice.user.id, product_type: 'domain', title: 'x.com', price_minor: 1000 })
    .execute();
  await t.db
    .insertInto('notifications')
    .values([
      { tenant_id: tenantA, user_id: alice.user.id, type: 'info', text: 'unread', created_at: t.clock.now() },
      { tenant_id: tenantA, user_id: alice.user.id, type: 'info', text: 'read', created_at: t.clock.now(), read_at: t.clock.now() },
    ])
    .execute();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const dashboard = async (call: Caller) => {
  const answer = await call({ method: 'GET', url: '/api/dashboard' });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json().data;
};

describe('GET /api/dashboard', () => {
  it('shows a customer their own numbers and the domains expiring next', async () => {
    const data = await dashboard(alice.call);
    expect(data).toMatchObject({
      scope: 'own',
      domains: 4,
      domains_expiring_30d: 1,
      domains_expired: 1,
      domain_users: 1,
      customers: null,
      cart_items: 1,
      credit: { amount: 0, formatted: '€0.00' },
      notifications_unread: 1,
    });
    expect(data.expiring_soon.map((d: { name: string }) => d.name)).toEqual(['soon.example']);
  });

  it('shows a customer the credit an admin gave them, as they read money', async () => {
    await giveCredit(admin.call, alice.user.id, 10_000);
    expect((await dashboard(alice.call)).credit).toEqual({ amount: 10_000, formatted: '€100.00' });
    await giveCredit(admin.call, alice.user.id, -10_000);
  });

  it("shows a host admin the tenant's totals, and a super admin everyone's", async () => {
    const tenant = await dashboard(admin.call);
    expect(tenant).toMatchObject({
      scope: 'tenant',
      domains: 5,
      domains_expiring_30d: 2,
      domains_expired: 1,
      domain_users: 1,
      customers: 2,
      cart_items: 0,
      notifications_unread: 0,
    });
    expect(tenant.expiring_soon.map((d: { name: string }) => d.name)).toEqual(['soon.example', 'bob-soon.example']);
    const all = await dashboard(root.call);
    expect(all).toMatchObject({ scope: 'all', domains: 6, domains_expiring_30d: 3, customers: 3 });
    expect((await t.app.inject({ method: 'GET', url: '/api/dashboard' })).statusCode).toBe(401);
  });
});
