import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, PASSWORD, superAdmin, type Caller } from '../../../test/hosting.ts';
import { mailsTo } from '../../../test/outbox.ts';
import type { UserRow } from '../users/queries.ts';

let t: TestApp;
let tenantA: number;
let tenantB: number;
let admin: { user: UserRow; call: Caller };
let adminB: { user: UserRow; call: Caller };
let customer: { user: UserRow; call: Caller };
let root: { user: UserRow; call: Caller };

beforeAll(async () => {
  t = await createTestApp();
  tenantA = await addTenant(t, 'Alpha', 'alpha.test');
  tenantB = await addTenant(t, 'Beta', 'beta.test');
  admin = await addUser(t, tenantA, 'admin@alpha.test', 'host_admin');
  adminB = await addUser(t, tenantB, 'admin@beta.test', 'host_admin');
  customer = await addUser(t, tenantA, 'zoe@alpha.test', 'customer', ['Zoe', 'Zimmer']);
  root = await superAdmin(t);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const newCustomer = (call: Caller, payload: Record<string, unknown> = {}) =>
  call({
    method: 'POST',
    url: '/api/system/customers',
    payload: {
      email: 'new@alpha.test',
      contact: { given_name: 'Nora', sn: 'New', phone: ['+420 123 456 789'] },
      password: 'initial passphrase 2026',
      language: 'cs',
      ...payload,
    },
  });

describe('/api/system/customers', () => {
  it('is for admins only', async () => {
    expect((await customer.call({ method: 'GET', url: '/api/system/customers' })).statusCode).toBe(403);
    expect((await newCustomer(customer.call)).statusCode).toBe(403);
    expect((await customer.call({ method: 'GET', url: `/api/system/customers/${customer.user.id}` })).statusCode).toBe(403);
  });

  it('creates a customer in the host admin tenant, once per e-mail, with the password policy', async () => {
    const answer = await newCustomer(admin.call);
    expect(answer.statusCode, answer.body).toBe(201);
    expect(answer.json().data).toMatchObject({
      tenant_id: tenantA,
      email: 'new@alpha.test',
      contact: { given_name: 'Nora', sn: 'New', phone: ['+420 123 456 789'], display_name: 'Nora New' },
      language: 'cs',
      locked: false,
      domains: 0,
    });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { host: 'alpha.test' },
      payload: { email: 'new@alpha.test', password: 'initial passphrase 2026' },
    });
    expect(login.statusCode).toBe(200);
    expect((await newCustomer(admin.call, { email: 'NEW@alpha.test' })).json().errors.email).toEqual([
      'An account with this e-mail address already exists.',
    ]);
    const weak = await newCustomer(admin.call, { email: 'weak@alpha.test', password: 'password' });
    expect(weak.json().errors.password).toBeDefined();
    const invalid = await newCustomer(admin.call, { email: 'not-an-email', contact: { given_name: '', sn: 'X', phone: ['abc'] } });
    expect(Object.keys(invalid.json().errors).sort()).toEqual(['contact.given_name', 'contact.phone.0', 'email']);
    // A host admin cannot place a customer in another tenant; a super admin can.
    expect((await newCustomer(admin.call, { email: 'x@beta.test', tenant_id: tenantB })).json().errors.tenant_id).toBeDefined();
    const bySuper = await newCustomer(root.call, { email: 'x@beta.test', tenant_id: tenantB });
    expect(bySuper.json().data.tenant_id).toBe(tenantB);
  });

  it("lists the tenant's customers with search and keyset pages", async () => {
    for (const email of ['amy@alpha.test', 'ben@alpha.test', 'cleo@alpha.test']) await newCustomer(admin.call, { email });
    const emails: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { email: string }[]; next_cursor: string | null } = (
        await admin.call({ method: 'GET', url: '/api/system/customers', query: { limit: '2', ...(cursor ? { cursor } : {}) } })
      ).json();
      emails.push(...page.data.map((c) => c.email));
      cursor = page.next_cursor;
    } while (cursor);
    expect(emails).toEqual(['amy@alpha.test', 'ben@alpha.test', 'cleo@alpha.test', 'new@alpha.test', 'zoe@alpha.test']);
    const search = (await admin.call({ method: 'GET', url: '/api/system/customers', query: { q: 'zim' } })).json().data;
    expect(search.map((c: { email: string }) => c.email)).toEqual(['zoe@alpha.test']);
    expect((await adminB.call({ method: 'GET', url: '/api/system/customers' })).json().data.map((c: { email: string }) => c.email)).toEqual(
      ['x@beta.test'],
    );
    expect((await admin.call({ method: 'GET', url: '/api/system/customers', query: { tenant_id: String(tenantB) } })).statusCode).toBe(404);
    const all = (await root.call({ method: 'GET', url: '/api/system/customers', query: { limit: '100' } })).json().data;
    expect(all.length).toBe(6);
  });

  it('edits contact data; the e-mail stays unique in the tenant', async () => {
    const id = customer.user.id;
    const answer = await admin.call({
      method: 'PATCH',
      url: `/api/system/customers/${id}`,
      payload: { contact: { sn: 'Zimmermann', phone: [] }, language: 'de' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toMatchObject({ contact: { given_name: 'Zoe', sn: 'Zimmermann', phone: [] }, language: 'de' });
    expect(
      (await admin.call({ method: 'PATCH', url: `/api/system/customers/${id}`, payload: { email: 'amy@alpha.test' } })).json().errors.email,
    ).toBeDefined();
    expect((await adminB.call({ method: 'PATCH', url: `/api/system/customers/${id}`, payload: { language: 'en' } })).statusCode).toBe(404);
    // Admins are not customers: not reachable here.
    expect((await admin.call({ method: 'GET', url: `/api/system/customers/${admin.user.id}` })).statusCode).toBe(404);
  });

  it('locks (ending every session) and unlocks', async () => {
    const target = await addUser(t, tenantA, 'lockme@alpha.test');
    expect((await target.call({ method: 'GET', url: '/api/user' })).statusCode).toBe(200);
    const locked = await admin.call({ method: 'POST', url: `/api/system/customers/${target.user.id}/lock` });
    expect(locked.json().data).toMatchObject({ locked: true });
    expect((await target.call({ method: 'GET', url: '/api/user' })).statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { host: 'alpha.test' },
      payload: { email: 'lockme@alpha.test', password: PASSWORD },
    });
    expect(login.statusCode).toBe(422);
    const unlocked = await admin.call({ method: 'POST', url: `/api/system/customers/${target.user.id}/unlock` });
    expect(unlocked.json().data.locked).toBe(false);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/login',
          headers: { host: 'alpha.test' },
          payload: { email: 'lockme@alpha.test', password: PASSWORD },
        })
      ).statusCode,
    ).toBe(200);
    const actions = await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('target_id', '=', String(target.user.id))
      .orderBy('id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual(['customer.locked', 'customer.unlocked']);
  });

  it('resets two-factor authentication and tells the customer', async () => {
    const target = await addUser(t, tenantA, 'twofa@alpha.test');
    await t.db
      .updateTable('users')
      .set({ google2fa_enabled: true, google2fa_secret: 'JBSWY3DPEHPK3PXP' })
      .where('id', '=', target.user.id)
      .execute();
    await t.db.insertInto('recovery_codes').values({ user_id: target.user.id, code_hash: 'x' }).execute();
    const answer = await admin.call({ method: 'POST', url: `/api/system/customers/${target.user.id}/reset-2fa` });
    expect(answer.json().data.google2fa_enabled).toBe(false);
    const row = await t.db
      .selectFrom('users')
      .select(['google2fa_secret', 'google2fa_enabled'])
      .where('id', '=', target.user.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ google2fa_secret: null, google2fa_enabled: false });
    expect(await t.db.selectFrom('recovery_codes').select('id').where('user_id', '=', target.user.id).execute()).toEqual([]);
    expect((await mailsTo(t.db, 'twofa@alpha.test')).map((m) => m.subject)).toEqual([
      'Two-factor authentication disabled for your Alpha account',
    ]);
  });

  it('deletes a customer with their domains after the e-mail is repeated', async () => {
    const target = await addUser(t, tenantA, 'leaving@alpha.test');
    const domain = (await target.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'leaving.example' } })).json().data.id;
    await target.call({
      method: 'POST',
      url: `/api/host/domain/${domain}/users`,
      payload: { uid: 'info', password: 'mailbox passphrase 2026', password_confirmation: 'mailbox passphrase 2026' },
    });
    const unconfirmed = await admin.call({
      method: 'DELETE',
      url: `/api/system/customers/${target.user.id}`,
      query: { confirm: 'someone@else' },
    });
    expect(unconfirmed.json().errors.confirm).toBeDefined();
    expect(
      (await adminB.call({ method: 'DELETE', url: `/api/system/customers/${target.user.id}`, query: { confirm: 'leaving@alpha.test' } }))
        .statusCode,
    ).toBe(404);
    const deleted = await admin.call({
      method: 'DELETE',
      url: `/api/system/customers/${target.user.id}`,
      query: { confirm: 'LEAVING@alpha.test' },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await t.db.selectFrom('users').select('id').where('id', '=', target.user.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('domains').select('id').where('id', '=', domain).execute()).toEqual([]);
    expect(await t.db.selectFrom('domain_users').select('id').where('domain_id', '=', domain).execute()).toEqual([]);
    expect(await t.db.selectFrom('dns_records').select('id').where('domain_id', '=', domain).execute()).toEqual([]);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['data', 'user_id'])
      .where('action', '=', 'customer.deleted')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ user_id: admin.user.id, data: { email: 'leaving@alpha.test', domains: 1 } });
  });
});
