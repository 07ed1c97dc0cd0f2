import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, PASSWORD, superAdmin, type Caller } from '../../../test/hosting.ts';
import type { UserRow } from '../users/queries.ts';

// Enforced two-factor authentication: a host admin requires it of the tenant's customers, a super
// admin of every admin; until they set it up, such users reach only /account/2fa (and their user),
// every other call answering 403 with the code the web acts on.

let t: TestApp;
let tenantA: number;
let hostAdmin: { user: UserRow; call: Caller };
let customer: { user: UserRow; call: Caller };
let otherCustomer: { user: UserRow; call: Caller };
let operator: { user: UserRow; call: Caller };

beforeAll(async () => {
  t = await createTestApp();
  tenantA = await addTenant(t, 'Alpha', 'alpha.test');
  const tenantB = await addTenant(t, 'Beta', 'beta.test');
  hostAdmin = await addUser(t, tenantA, 'admin@alpha.test', 'host_admin');
  customer = await addUser(t, tenantA, 'customer@alpha.test');
  otherCustomer = await addUser(t, tenantB, 'customer@beta.test');
  operator = await superAdmin(t);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const settings = (who: { call: Caller }, payload?: object) =>
  who.call(payload ? { method: 'PATCH', url: '/api/system/security', payload } : { method: 'GET', url: '/api/system/security' });
const userOf = async (who: { call: Caller }) => (await who.call({ method: 'GET', url: '/api/user' })).json().data.user;
const domains = (who: { call: Caller }) => who.call({ method: 'GET', url: '/api/host/domain' });

/** Sets up TOTP through the API, as the /account/2fa page does, with a real code. */
async function setUpTwoFactor(who: { call: Caller }, password = PASSWORD) {
  const setup = await who.call({ method: 'POST', url: '/api/account/2fa/setup', payload: { password } });
  expect(setup.statusCode, setup.body).toBe(200);
  const code = await generate({ secret: setup.json().data.secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });
  const enabled = await who.call({ method: 'POST', url: '/api/account/2fa/enable', payload: { code } });
  expect(enabled.statusCode, enabled.body).toBe(200);
  t.clock.advance(30_000);
}

describe('/api/system/security', () => {
  it('is for admins; host admins may not change the rule for admins', async () => {
    expect((await settings(customer)).statusCode).toBe(403);
    expect((await settings(customer, { require_2fa_customers: true })).statusCode).toBe(403);
    expect((await settings(hostAdmin)).json().data).toEqual({
      require_2fa_customers: false,
      require_2fa_admins: false,
      can_change_admins: false,
    });
    expect((await settings(hostAdmin, { require_2fa_admins: true })).statusCode).toBe(403);
    expect((await settings(operator)).json().data.can_change_admins).toBe(true);
  });

  it("holds a tenant's customers without a second factor at /account/2fa until they set one up", async () => {
    const saved = await settings(hostAdmin, { require_2fa_customers: true });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ data: { require_2fa_customers: true }, message: 'Security settings saved.' });

    expect((await userOf(customer)).two_factor_setup_required).toBe(true);
    const refused = await domains(customer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      message: 'Your provider requires two-factor authentication for your account. Set it up to go on.',
      code: 'two_factor_setup_required',
    });
    const writes = await customer.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'held.example' } });
    expect(writes.statusCode).toBe(403);
    expect((await customer.call({ method: 'GET', url: '/api/account/2fa' })).statusCode).toBe(200);
    // Other tenants' customers and the tenant's own admins are not concerned.
    expect((await domains(otherCustomer)).statusCode).toBe(200);
    expect((await domains(hostAdmin)).statusCode).toBe(200);

    await setUpTwoFactor(customer);
    expect((await userOf(customer)).two_factor_setup_required).toBe(false);
    expect((await domains(customer)).statusCode).toBe(200);

    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'tenant_id'])
      .where('action', '=', 'tenant.security_updated')
      .execute();
    expect(audit).toEqual([{ action: 'tenant.security_updated', tenant_id: tenantA }]);
  });

  it('requires it of every admin only from a super admin who has it, and holds back host admins', async () => {
    const refused = await settings(operator, { require_2fa_admins: true });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ require_2fa_admins: ['Set up two-factor authentication for your own account first.'] });

    await setUpTwoFactor(operator, ADMIN_PASSWORD);
    expect((await settings(operator, { require_2fa_admins: true })).statusCode).toBe(200);
    // On every tenant's host: the host admin of Alpha is held back, customers of Beta are not.
    expect((await domains(hostAdmin)).json().code).toBe('two_factor_setup_required');
    expect((await userOf(hostAdmin)).two_factor_setup_required).toBe(true);
    expect((await domains(otherCustomer)).statusCode).toBe(200);
    expect((await domains(operator)).statusCode).toBe(200);

    expect((await settings(operator, { require_2fa_admins: false })).statusCode).toBe(200);
    expect((await domains(hostAdmin)).statusCode).toBe(200);
  });
});
