import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, type Caller } from '../../../test/hosting.ts';
import { lastMailTo, linkIn, newestLinkTo } from '../../../test/outbox.ts';
import type { UserRow } from '../users/queries.ts';

let t: TestApp;
let admin: { user: UserRow; call: Caller };
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestApp();
  const alpha = await addTenant(t, 'Alpha Hosting', 'alpha.test');
  admin = await addUser(t, alpha, 'admin@alpha.test', 'host_admin', ['Ada', 'Admin']);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const invite = (email: string) =>
  admin.call({
    method: 'POST',
    url: '/api/system/customers',
    payload: { email, contact: { given_name: 'Ivo', sn: 'Invited' }, language: 'en' },
  });

describe('POST /api/system/customers without a password', () => {
  it("mails an invitation whose link sets the customer's own password, once", async () => {
    const created = await invite('ivo@example.com');
    expect(created.statusCode, created.body).toBe(201);
    const mail = await lastMailTo(t.db, 'ivo@example.com');
    expect(mail?.subject).toBe('Your account at Alpha Hosting is ready');
    expect(mail?.text_body).toContain('Ada Admin has created an account for you at Alpha Hosting');
    const path = new URL(linkIn(mail?.text_body ?? '', '/password/reset/')).pathname;
    expect(path.startsWith('/password/reset/')).toBe(true);
    // Nobody knows a password yet: the admin never typed one.
    const chosen = 'the customer chose this passphrase';
    const set = await t.app.inject({
      method: 'POST',
      url: `/api${path}`,
      headers: { host: 'alpha.test' },
      payload: { password: chosen, password_confirmation: chosen },
    });
    expect(set.statusCode, set.body).toBe(200);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { host: 'alpha.test' },
      payload: { email: 'ivo@example.com', password: chosen, remember: false },
    });
    expect(login.statusCode).toBe(200);
    const again = await t.app.inject({
      method: 'POST',
      url: `/api${path}`,
      headers: { host: 'alpha.test' },
      payload: { password: chosen, password_confirmation: chosen },
    });
    expect(again.statusCode).toBe(422);
    const audit = await t.db.selectFrom('audit_log').select('data').where('action', '=', 'customer.created').execute();
    expect(audit.at(-1)?.data).toMatchObject({ email: 'ivo@example.com', invited: true });
  });

  it('keeps the link for 7 days, not longer', async () => {
    expect((await invite('late@example.com')).statusCode).toBe(201);
    const path = new URL(await newestLinkTo(t.db, 'late@example.com', '/password/reset/')).pathname;
    t.clock.advance(7 * DAY + 60_000);
    const late = await t.app.inject({
      method: 'POST',
      url: `/api${path}`,
      headers: { host: 'alpha.test' },
      payload: { password: 'a passphrase too late', password_confirmation: 'a passphrase too late' },
    });
    expect(late.statusCode).toBe(422);
  });
});
