import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, sessionCookieFrom, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, callerWith, hostOf, sessionFor, superAdmin, type Caller } from '../../../test/hosting.ts';
import type { UserRow } from '../users/queries.ts';

let t: TestApp;
let tenantA: number;
let admin: { user: UserRow; call: Caller };
let adminB: { user: UserRow; call: Caller };
let customer: { user: UserRow; call: Caller };
let root: { user: UserRow; call: Caller };

beforeAll(async () => {
  t = await createTestApp();
  tenantA = await addTenant(t, 'Alpha', 'alpha.test');
  const tenantB = await addTenant(t, 'Beta', 'beta.test');
  admin = await addUser(t, tenantA, 'admin@alpha.test', 'host_admin', ['Ada', 'Admin']);
  adminB = await addUser(t, tenantB, 'admin@beta.test', 'host_admin');
  customer = await addUser(t, tenantA, 'cleo@alpha.test', 'customer', ['Cleo', 'Customer']);
  root = await superAdmin(t);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('log in as customer', () => {
  it("swaps the admin's session for the customer's, with a banner, audit entries and a way back", async () => {
    const adminCookie = await sessionFor(t, admin.user, false);
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/system/customers/${customer.user.id}/impersonate`,
      headers: { cookie: adminCookie, host: await hostOf(t, tenantA) },
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({
      data: { status: 'authenticated', user: { id: customer.user.id } },
      message: 'You are now logged in as the customer.',
    });
    const asCustomer = callerWith(t, sessionCookieFrom(started.headers['set-cookie']), await hostOf(t, tenantA));
    // The admin's own session is gone (rotated), the new one is the customer's.
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user', headers: { cookie: adminCookie, host: await hostOf(t, tenantA) } }))
        .statusCode,
    ).toBe(401);
    expect((await asCustomer({ method: 'GET', url: '/api/user' })).json().data.user.id).toBe(customer.user.id);
    expect((await asCustomer({ method: 'GET', url: '/api/impersonation' })).json().data.impersonator).toEqual({
      id: admin.user.id,
      email: 'admin@alpha.test',
      display_name: 'Ada Admin',
      role: 'host_admin',
    });
    expect((await root.call({ method: 'GET', url: '/api/impersonation' })).json().data.impersonator).toBeNull();

    // What the admin does as the customer is recorded as the customer's, with the admin behind it.
    const domain = await asCustomer({ method: 'POST', url: '/api/host/domain', payload: { name: 'on-behalf.example' } });
    expect(domain.json().data.owner.id).toBe(customer.user.id);
    const entry = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'domain.created').executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ user_id: customer.user.id, impersonator_id: admin.user.id });
    const log = (await root.call({ method: 'GET', url: '/api/system/audit', query: { action: 'domain.created' } })).json().data[0];
    expect(log).toMatchObject({ user: { id: customer.user.id }, impersonator: { id: admin.user.id, display_name: 'Ada Admin' } });

    const stopped = await asCustomer({ method: 'POST', url: '/api/impersonation/stop' });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json().data.user.id).toBe(admin.user.id);
    const back = callerWith(t, sessionCookieFrom(stopped.headers['set-cookie']), await hostOf(t, tenantA));
    expect((await back({ method: 'GET', url: '/api/user' })).json().data.user.id).toBe(admin.user.id);
    expect((await back({ method: 'GET', url: '/api/impersonation' })).json().data.impersonator).toBeNull();
    expect((await asCustomer({ method: 'GET', url: '/api/user' })).statusCode).toBe(401);
    const actions = await t.db
      .selectFrom('audit_log')
      .select(['action', 'user_id', 'target_id'])
      .where('action', 'like', 'impersonation.%')
      .orderBy('id')
      .execute();
    expect(actions).toEqual([
      { action: 'impersonation.started', user_id: admin.user.id, target_id: String(customer.user.id) },
      { action: 'impersonation.stopped', user_id: admin.user.id, target_id: String(customer.user.id) },
    ]);
    expect((await back({ method: 'POST', url: '/api/impersonation/stop' })).statusCode).toBe(409);
  });

  it('is for admins of the customer: others get 403 or 404', async () => {
    expect((await customer.call({ method: 'POST', url: `/api/system/customers/${customer.user.id}/impersonate` })).statusCode).toBe(403);
    expect((await adminB.call({ method: 'POST', url: `/api/system/customers/${customer.user.id}/impersonate` })).statusCode).toBe(404);
    // Admins cannot be impersonated.
    expect((await root.call({ method: 'POST', url: `/api/system/customers/${admin.user.id}/impersonate` })).statusCode).toBe(404);
    const bySuper = await root.call({ method: 'POST', url: `/api/system/customers/${customer.user.id}/impersonate` });
    expect(bySuper.statusCode).toBe(200);
  });

  it('refuses a locked customer and ends the borrowed session when the admin lost the right', async () => {
    const locked = await addUser(t, tenantA, 'locked@alpha.test');
    await t.db.updateTable('users').set({ locked_at: t.clock.now() }).where('id', '=', locked.user.id).execute();
    expect((await admin.call({ method: 'POST', url: `/api/system/customers/${locked.user.id}/impersonate` })).statusCode).toBe(422);

    const demoted = await addUser(t, tenantA, 'temp-admin@alpha.test', 'host_admin');
    const started = await demoted.call({ method: 'POST', url: `/api/system/customers/${customer.user.id}/impersonate` });
    const asCustomer = callerWith(t, sessionCookieFrom(started.headers['set-cookie']), await hostOf(t, tenantA));
    await t.db.updateTable('users').set({ role: 'customer' }).where('id', '=', demoted.user.id).execute();
    expect((await asCustomer({ method: 'POST', url: '/api/impersonation/stop' })).statusCode).toBe(401);
    expect((await asCustomer({ method: 'GET', url: '/api/user' })).statusCode).toBe(401);
  });
});
