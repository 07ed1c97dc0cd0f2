import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABILITIES, OPERATOR_TENANT_ID, TENANT_KINDS, type Ability, type MenuItem, type Role, type TenantKind } from '@berth/contracts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addUser, callerWith, hostOf, sessionFor, superAdmin, type Caller } from '../../../test/hosting.ts';
import { shopTenant } from '../../../test/shop.ts';
import { abilitiesOf, may } from './table.ts';

/**
 * The policy table walked for every role and kind of tenant: the API, the menu and the abilities
 * the web reads must give the table's answer for each action, never an answer of their own.
 */
let t: TestApp;
type Person = { call: Caller; customerId: number };
const people = new Map<string, Person>();
const key = (role: Role, kind: TenantKind) => `${role}@${kind}`;

/** One request that only a user who may do `ability` gets answered (null: the ability has no API of its own). */
const PROBES: Record<Ability, ((customerId: number) => string) | null> = {
  'customers.manage': () => '/api/system/customers',
  'audit.view': () => '/api/system/audit',
  'security.manage': () => '/api/system/security',
  'invoices.manage': () => '/api/system/invoices',
  'catalogue.manage': () => '/api/system/shop/catalogue',
  'promo.manage': () => '/api/system/partner/promo',
  'credit.administer': (customerId) => `/api/system/credit/${customerId}`,
  'credit.own': () => '/api/credit',
  'credit.header': null,
  'payment_methods.use': () => '/api/account/payment-methods',
  'tenants.manage': () => '/api/system/tenants',
  'outbox.view': () => '/api/system/outbox',
  'servers.manage': () => '/api/system/servers',
  'jobs.manage': () => '/api/system/jobs',
  'webhooks.manage': () => '/api/system/webhooks',
  'webhooks.allow_ranges': () => '/api/system/webhooks/allowed-ranges',
  'api_docs.view': null,
};

/** The menu entry that leads to the ability's page (null: none of its own). */
const MENU: Record<Ability, ((role: Role) => string | null) | null> = {
  'customers.manage': () => 'system.customers',
  'audit.view': () => 'system.audit',
  'security.manage': () => 'system.security',
  'invoices.manage': () => 'system.invoices',
  'catalogue.manage': () => 'system.catalogue',
  'promo.manage': () => 'partner.promo',
  'credit.administer': () => 'partner.credit',
  // An admin's own credit is on the partner credit page; a customer's has its own entry.
  'credit.own': (role) => (role === 'customer' ? 'account.credit' : null),
  'credit.header': null,
  'payment_methods.use': () => 'account.payment_methods',
  'tenants.manage': () => 'system.tenants',
  'outbox.view': () => 'system.outbox',
  'servers.manage': () => 'system.servers',
  'jobs.manage': () => 'system.jobs',
  'webhooks.manage': () => 'system.webhooks',
  // A section of the webhooks page.
  'webhooks.allow_ranges': null,
  'api_docs.view': () => 'api',
};

const menuIds = (items: MenuItem[]): string[] => items.flatMap((item) => [item.id, ...menuIds(item.children)]);

beforeAll(async () => {
  t = await createTestApp();
  const root = await superAdmin(t);
  const cookie = await sessionFor(t, root.user);
  const operatorAdmin = await addUser(t, OPERATOR_TENANT_ID, 'ops-admin@localhost', 'host_admin');
  const operatorCustomer = await addUser(t, OPERATOR_TENANT_ID, 'ops-customer@localhost', 'customer');
  const selling = await shopTenant(t, 'selling');
  const reseller = await shopTenant(t, 'reseller', { hostPurchases: true });
  const tenants = {
    operator: { tenantId: OPERATOR_TENANT_ID, admin: operatorAdmin, customer: operatorCustomer },
    selling,
    reseller,
  };
  for (const kind of TENANT_KINDS) {
    const tenant = tenants[kind];
    const customerId = tenant.customer.user.id;
    // A super admin may sign in at any tenant's host; they act on that tenant there.
    people.set(key('super_admin', kind), { call: callerWith(t, cookie, await hostOf(t, tenant.tenantId)), customerId });
    people.set(key('host_admin', kind), { call: tenant.admin.call, customerId });
    people.set(key('customer', kind), { call: tenant.customer.call, customerId });
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const roles: Role[] = ['super_admin', 'host_admin', 'customer'];
const cells = roles.flatMap((role) => TENANT_KINDS.map((kind) => ({ role, kind })));

describe('one policy table decides who may do what', () => {
  it('gives the issue’s answers: every tenant that sells manages its promo codes, customers never', () => {
    for (const kind of TENANT_KINDS) {
      expect(may('host_admin', kind, 'promo.manage')).toBe(true);
      expect(may('super_admin', kind, 'promo.manage')).toBe(true);
      expect(may('customer', kind, 'promo.manage')).toBe(false);
    }
    // docs/product.md §6: payment methods and the header's credit for super admins and host_purchases tenants.
    expect(may('host_admin', 'selling', 'payment_methods.use')).toBe(false);
    expect(may('customer', 'reseller', 'payment_methods.use')).toBe(true);
    expect(may('customer', 'selling', 'credit.header')).toBe(false);
    expect(may('host_admin', 'reseller', 'tenants.manage')).toBe(false);
  });

  it.each(cells)('the API answers $role on a $kind tenant exactly where the table allows', async ({ role, kind }) => {
    const person = people.get(key(role, kind));
    if (!person) throw new Error('fixture missing');
    const answers = await Promise.all(
      ABILITIES.map(async (ability) => {
        const probe = PROBES[ability];
        if (!probe) return null;
        const answer = await person.call({ method: 'GET', url: probe(person.customerId) });
        return { ability, status: answer.statusCode, allowed: may(role, kind, ability) };
      }),
    );
    for (const answer of answers) {
      if (!answer) continue;
      expect({ ability: answer.ability, status: answer.status }).toEqual({
        ability: answer.ability,
        status: answer.allowed ? 200 : 403,
      });
    }
  });

  it.each(cells)('the menu and the abilities of $role on a $kind tenant are the table’s', async ({ role, kind }) => {
    const person = people.get(key(role, kind));
    if (!person) throw new Error('fixture missing');
    const [menu, user] = await Promise.all([
      person.call({ method: 'GET', url: '/api/menu' }),
      person.call({ method: 'GET', url: '/api/user' }),
    ]);
    expect(user.json().data.abilities).toEqual(abilitiesOf(role, kind));
    const ids = menuIds(menu.json().data);
    for (const ability of ABILITIES) {
      const entry = MENU[ability]?.(role);
      if (!entry) continue;
      expect({ ability, shown: ids.includes(entry) }).toEqual({ ability, shown: may(role, kind, ability) });
    }
  });

  it('lets a selling tenant’s host admin create a promo code its customers then redeem', async () => {
    const admin = people.get(key('host_admin', 'selling'));
    if (!admin) throw new Error('fixture missing');
    const created = await admin.call({
      method: 'POST',
      url: '/api/system/partner/promo',
      payload: { code: 'SELLER10', kind: 'percent', value: 10 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const customer = people.get(key('customer', 'selling'));
    const refused = await customer?.call({
      method: 'POST',
      url: '/api/system/partner/promo',
      payload: { code: 'MINE10', kind: 'percent', value: 10 },
    });
    expect(refused?.statusCode).toBe(403);
  });
});
