import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { createTestApp, createCustomer, login, sessionCookieFrom, type TestApp } from '../../../test/harness.ts';
import { lastMailTo, mailsTo, newestLinkTo } from '../../../test/outbox.ts';
import { insertTenant, insertTenantHost } from '../tenants/queries.ts';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const EMAIL = 'olga@localhost';

const requestOtp = (email = EMAIL, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/password/otp', payload: { email }, headers });

const otpLogin = (uniq_id: string, otp: string) =>
  t.app.inject({ method: 'POST', url: '/api/password/otplogin', payload: { uniq_id, otp } });

/** Requests a code and reads it (and its one-click link) from the mail. */
async function codeFor(email = EMAIL) {
  const answer = await requestOtp(email);
  expect(answer.statusCode).toBe(200);
  const uniqId: string = answer.json().data.uniq_id;
  const link = new URL(await newestLinkTo(t.db, email, '/password/otplogin'));
  return { uniqId, code: link.searchParams.get('otp') ?? '', link };
}

describe('one-time password login', () => {
  it('answers a notice and a uniq_id, and mails a 6-character code with a one-click link', async () => {
    await createCustomer(t, EMAIL);
    const { uniqId, code, link } = await codeFor();
    expect(code).toMatch(/^\d{6}$/);
    expect(link.searchParams.get('uniq_id')).toBe(uniqId);
    expect((await lastMailTo(t.db, EMAIL))?.text_body).toContain(code);
    const answer = await otpLogin(uniqId, code);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data.status).toBe('authenticated');
    const cookie = sessionCookieFrom(answer.headers['set-cookie']);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).json().data.user.email).toBe(EMAIL);
  });

  it('answers an unknown e-mail the same way and sends nothing', async () => {
    await createCustomer(t, EMAIL);
    const unknown = await requestOtp('ghost@localhost');
    const known = await requestOtp(EMAIL);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json().notice).toBe(known.json().notice);
    expect(unknown.json().data.uniq_id).toMatch(/^[\w-]{20,}$/);
    expect(await mailsTo(t.db, 'ghost@localhost')).toHaveLength(0);
    expect((await otpLogin(unknown.json().data.uniq_id, '123456')).statusCode).toBe(422);
  });

  it('works once, only with its own uniq_id, and for 10 minutes', async () => {
    await createCustomer(t, EMAIL);
    const first = await codeFor();
    const second = await codeFor();
    expect((await otpLogin(second.uniqId, first.code)).statusCode).toBe(first.code === second.code ? 200 : 422);
    expect((await otpLogin(first.uniqId, first.code)).statusCode).toBe(200);
    expect((await otpLogin(first.uniqId, first.code)).statusCode).toBe(422);
    const third = await codeFor();
    t.clock.advance(10 * 60_000 + 1000);
    expect((await otpLogin(third.uniqId, third.code)).json().errors.otp).toEqual([
      'The code is not valid or has expired. Please request a new one.',
    ]);
  });

  it('kills the uniq_id after 5 wrong tries, and a new code does not reset the account count', async () => {
    await createCustomer(t, EMAIL);
    const { uniqId, code } = await codeFor();
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++) expect((await otpLogin(uniqId, wrong)).statusCode).toBe(422);
    const fresh = await codeFor();
    expect((await otpLogin(uniqId, wrong)).statusCode).toBe(422);
    // The account has 5 failures now: even the right, fresh code waits out the window.
    expect((await otpLogin(fresh.uniqId, fresh.code)).statusCode).toBe(429);
    // Without the account lock (as if its window had passed), the killed uniq_id stays dead
    // even for its right code, while the fresh one works.
    await t.db.deleteFrom('throttle_hits').execute();
    expect((await otpLogin(uniqId, code)).statusCode).toBe(422);
    expect((await otpLogin(fresh.uniqId, fresh.code)).statusCode).toBe(200);
  });

  it('still asks a 2FA user for the second factor', async () => {
    const { cookie } = await login(t.app);
    const setup = await t.app.inject({
      method: 'POST',
      url: '/api/account/2fa/setup',
      headers: { cookie },
      payload: { password: 'sturdy lantern orchard velvet' },
    });
    const secret = setup.json().data.secret;
    await t.app.inject({
      method: 'POST',
      url: '/api/account/2fa/enable',
      headers: { cookie },
      payload: { code: await generate({ secret, epoch: t.clock.now().getTime() / 1000 }) },
    });
    const { uniqId, code } = await codeFor('admin@localhost');
    const answer = await otpLogin(uniqId, code);
    expect(answer.json()).toEqual({ data: { status: 'two_factor_required' } });
    const pending = sessionCookieFrom(answer.headers['set-cookie']);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: pending } })).statusCode).toBe(401);
  });

  it('is offered on tenant 1 only', async () => {
    const tenant = await insertTenant(t.db, { title: 'Reseller' });
    await insertTenantHost(t.db, tenant.id, 'reseller.localhost');
    expect((await requestOtp(EMAIL, { host: 'reseller.localhost' })).statusCode).toBe(404);
  });
});
