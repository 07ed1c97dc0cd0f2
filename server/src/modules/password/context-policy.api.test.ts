import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { solveAltcha } from '../../../test/captcha.ts';
import { addTenant, addUser, hostOf, PASSWORD, type Caller } from '../../../test/hosting.ts';
import { createUser, WeakPasswordError } from '../users/service.ts';
import type { UserRow } from '../users/queries.ts';

// Every surface that sets a password refuses one built on its context (the tenant's host names and
// title, the person's e-mail and names, the mailbox's domain) and the famous example passphrases,
// each with the reason under its field.

let t: TestApp;
let tenant: number;
let host: string;
let admin: { user: UserRow; call: Caller };
let customer: { user: UserRow; call: Caller };
let domainId: number;

/** Built on the tenant (hosts `harbor.localhost`, title "Harbor Hosting"), a famous passphrase, an address of the tenant. */
const WEAK = [
  'harborlocalhost2026',
  'Harbor.Localhost!!',
  '2026 harbor hosting',
  'correcthorsebatterystaple',
  'Correct Horse, Battery Staple!',
  'billing@harbor.localhost',
];
const REASONS = [
  'The password is built on your e-mail address, name or this site. Choose something unrelated.',
  expect.stringMatching(/common|known/i),
];

beforeAll(async () => {
  t = await createTestApp();
  tenant = await addTenant(t, 'Harbor Hosting', 'harbor.localhost');
  host = await hostOf(t, tenant);
  admin = await addUser(t, tenant, 'admin@harbor.localhost', 'host_admin');
  customer = await addUser(t, tenant, 'hana@example.org', 'customer', ['Hana', 'Novak']);
  domainId = (await customer.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'novak-family.example' } })).json().data.id;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const refusedOn = (answer: { statusCode: number; json(): { errors?: Record<string, string[]> } }, field: string) => {
  expect(answer.statusCode).toBe(422);
  expect(REASONS).toContainEqual(answer.json().errors?.[field]?.[0]);
};

describe('passwords built on their context are refused', () => {
  it.each(WEAK)('on a password change: %j', async (password) => {
    const answer = await customer.call({
      method: 'PATCH',
      url: '/api/account/password',
      payload: { current_password: PASSWORD, password, password_confirmation: password },
    });
    refusedOn(answer, 'password');
  });

  it("on a password change: the person's own names with a year", async () => {
    const answer = await customer.call({
      method: 'PATCH',
      url: '/api/account/password',
      payload: { current_password: PASSWORD, password: 'HanaNovak1990!!', password_confirmation: 'HanaNovak1990!!' },
    });
    refusedOn(answer, 'password');
  });

  it.each(WEAK)('on a customer made by an admin: %j', async (password) => {
    const answer = await admin.call({
      method: 'POST',
      url: '/api/system/customers',
      payload: { email: `c${Math.random().toString(36).slice(2, 8)}@example.net`, contact: { given_name: 'Carl', sn: 'Client' }, password },
    });
    refusedOn(answer, 'password');
  });

  it.each([...WEAK, 'novakfamilyexample2026'])('on a new mailbox: %j', async (password) => {
    const answer = await customer.call({
      method: 'POST',
      url: `/api/host/domain/${domainId}/users`,
      payload: { uid: 'office', password, password_confirmation: password, quota_mb: 100, enabled: true },
    });
    refusedOn(answer, 'password');
  });

  it.each(WEAK)('on registration: %j', async (password) => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/registration',
      headers: { host },
      payload: {
        contact: { given_name: 'Nina', sn: 'Nova' },
        email: 'nina@example.com',
        password,
        password_confirmation: password,
        terms_agreement: true,
        processing_personal_data_agreement: true,
        g_recaptcha_response: await solveAltcha(t.app),
      },
    });
    refusedOn(answer, 'password');
  });

  it('on a user made from the command line', async () => {
    await expect(
      createUser(t.db, t.services.hasher, t.clock, {
        tenantId: tenant,
        email: 'cli@example.com',
        password: 'harborlocalhost2026',
        role: 'customer',
      }),
    ).rejects.toThrow(WeakPasswordError);
  });

  it('and still accepts an unrelated long passphrase everywhere', async () => {
    const good = 'quiet violet tram seventeen';
    const change = await customer.call({
      method: 'PATCH',
      url: '/api/account/password',
      payload: { current_password: PASSWORD, password: good, password_confirmation: good },
    });
    expect(change.statusCode, change.body).toBe(200);
    const mailbox = await customer.call({
      method: 'POST',
      url: `/api/host/domain/${domainId}/users`,
      payload: { uid: 'office', password: good, password_confirmation: good, quota_mb: 100, enabled: true },
    });
    expect(mailbox.statusCode, mailbox.body).toBe(201);
  });
});
