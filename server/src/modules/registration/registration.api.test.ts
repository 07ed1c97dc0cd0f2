import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, sessionCookieFrom, type TestApp } from '../../../test/harness.ts';
import { solveAltcha } from '../../../test/captcha.ts';
import { lastMailTo, linkIn, newestLinkTo } from '../../../test/outbox.ts';
import { insertTenant, insertTenantHost } from '../tenants/queries.ts';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const EMAIL = 'new.customer@example.com';
const PASSWORD = 'my very own passphrase';

async function register(overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const payload = {
    contact: { given_name: 'Nina', sn: 'Nováková' },
    email: EMAIL,
    password: PASSWORD,
    password_confirmation: PASSWORD,
    terms_agreement: true,
    processing_personal_data_agreement: true,
    g_recaptcha_response: await solveAltcha(t.app),
    ...overrides,
  };
  return t.app.inject({ method: 'POST', url: '/api/registration', payload, headers });
}

const verify = (code: string) => t.app.inject({ method: 'PATCH', url: '/api/register/verify', payload: { code } });

async function verificationCode(): Promise<string> {
  const link = await newestLinkTo(t.db, EMAIL, '/register/verify/');
  return new URL(link).pathname.split('/').pop() ?? '';
}

/** Registers and opens the mailed link: the new customer's session cookie. */
async function registerAndActivate(): Promise<string> {
  expect((await register()).statusCode).toBe(200);
  const answer = await verify(await verificationCode());
  expect(answer.statusCode).toBe(200);
  return sessionCookieFrom(answer.headers['set-cookie']);
}

const usersWith = (email: string) => t.db.selectFrom('users').selectAll().where('email', '=', email).execute();

describe('POST /api/registration', () => {
  it('answers without a session and mails an activation link; the link makes the customer and signs them in', async () => {
    const answer = await register();
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      data: { status: 'verification_required' },
      message: 'Almost done: we have sent you an e-mail. Open its link to activate your account.',
    });
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(await usersWith(EMAIL), 'no account before the link').toEqual([]);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: EMAIL, password: PASSWORD } });
    expect(login.statusCode, 'no login before the link').toBe(422);

    const activated = await verify(await verificationCode());
    expect(activated.statusCode).toBe(200);
    expect(activated.json().message).toBe('Welcome! Your account is active and you are signed in.');
    expect(activated.json().data.user).toMatchObject({
      email: EMAIL,
      role: 'customer',
      email_verified: true,
      contact: { given_name: 'Nina', sn: 'Nováková' },
    });
    const cookie = sessionCookieFrom(activated.headers['set-cookie']);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).json().data.user.email).toBe(EMAIL);
    const again = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: EMAIL, password: PASSWORD } });
    expect(again.statusCode).toBe(200);
  });

  it('gives an address with an account the same answer, creates nothing and tells the owner', async () => {
    await registerAndActivate();
    const before = await usersWith(EMAIL);
    const fresh = await register({ email: 'fresh@example.com' });
    const taken = await register({ password: 'an attacker chose this one', password_confirmation: 'an attacker chose this one' });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.body).toBe(fresh.body);
    expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(fresh.headers).sort());
    expect(await usersWith(EMAIL)).toEqual(before);
    const notice = await lastMailTo(t.db, EMAIL);
    expect(notice?.subject).toMatch(/tried to register/);
    expect(linkIn(notice?.text_body ?? '', '/password/forgot')).toMatch(/\/password\/forgot$/);
    expect(notice?.text_body).not.toMatch(/register\/verify/);
    const attacker = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: EMAIL, password: 'an attacker chose this one' },
    });
    expect(attacker.statusCode).toBe(422);
  });

  it('replaces a pending registration when the address registers again; only the newest link works', async () => {
    expect(
      (await register({ password: 'the first passphrase typed', password_confirmation: 'the first passphrase typed' })).statusCode,
    ).toBe(200);
    const first = await verificationCode();
    expect((await register()).statusCode).toBe(200);
    const second = await verificationCode();
    expect((await verify(first)).statusCode).toBe(422);
    expect((await verify(second)).statusCode).toBe(200);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: EMAIL, password: PASSWORD } });
    expect(login.statusCode, 'the password of the newest registration').toBe(200);
  });

  it('writes the new user in the language of the form', async () => {
    expect((await register({}, { 'accept-language': 'de-DE' })).statusCode).toBe(200);
    expect((await lastMailTo(t.db, EMAIL))?.html_body).toContain('lang="de"');
    expect((await verify(await verificationCode())).json().data.user.language).toBe('de');
  });

  it.each([
    ['a missing captcha', { g_recaptcha_response: '' }, 'g_recaptcha_response', /not a robot/],
    [
      'a forged captcha',
      { g_recaptcha_response: Buffer.from('{"challenge":{},"solution":{}}').toString('base64') },
      'g_recaptcha_response',
      /could not be verified/,
    ],
    ['unticked terms', { terms_agreement: false }, 'terms_agreement', /accept/],
    ['unticked data processing', { processing_personal_data_agreement: false }, 'processing_personal_data_agreement', /accept/],
    ['a short password', { password: 'short', password_confirmation: 'short' }, 'password', /15 characters/],
    ['a mismatched confirmation', { password_confirmation: `${PASSWORD}!` }, 'password_confirmation', /do not match/],
    ['a missing surname', { contact: { given_name: 'Nina', sn: '' } }, 'contact.sn', /required/],
    ['a bad e-mail', { email: 'not-an-email' }, 'email', /valid e-mail/],
  ])('refuses %s with a field error', async (_name, overrides, field, text) => {
    const answer = await register(overrides);
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors[field]?.[0]).toMatch(text);
    expect(await t.db.selectFrom('users').select('id').where('email', '=', EMAIL).execute()).toEqual([]);
    expect(await t.db.selectFrom('registrations').select('id').execute()).toEqual([]);
  });

  it('takes a captcha token only once', async () => {
    const token = await solveAltcha(t.app);
    expect((await register({ g_recaptcha_response: token })).statusCode).toBe(200);
    const replay = await register({ g_recaptcha_response: token, email: 'other@example.com' });
    expect(replay.json().errors.g_recaptcha_response).toBeDefined();
  });

  it('allows 5 registrations an hour per IP', async () => {
    for (let i = 0; i < 5; i++) expect((await register({ email: `n${i}@example.com` })).statusCode).toBe(200);
    const sixth = await register({ email: 'n6@example.com' });
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(60 * 60_000 + 1000);
    expect((await register({ email: 'n6@example.com' })).statusCode).toBe(200);
  });

  it('does not count failed captchas as registrations, even 30 at the same instant', async () => {
    const failed = await Promise.all(
      Array.from({ length: 30 }, (_, i) => register({ email: `bot${i}@example.com`, g_recaptcha_response: 'forged' })),
    );
    expect(failed.map((answer) => answer.statusCode)).toEqual(Array(30).fill(422));
    expect(failed.every((answer) => answer.json().errors.g_recaptcha_response !== undefined)).toBe(true);
    // The network's five registrations an hour are all still there.
    for (let i = 0; i < 5; i++) expect((await register({ email: `real${i}@example.com` })).statusCode).toBe(200);
    expect((await register({ email: 'real6@example.com' })).statusCode).toBe(429);
    expect(await t.db.selectFrom('registrations').select('email').where('email', 'like', 'bot%').execute()).toEqual([]);
  });
});

describe('PATCH /api/register/verify', () => {
  it('activates once with the mailed code, on its own tenant only', async () => {
    expect((await register()).statusCode).toBe(200);
    const code = await verificationCode();
    const tenant = await insertTenant(t.db, { title: 'Other host', public_url: null });
    await insertTenantHost(t.db, tenant.id, 'other.localhost');
    const elsewhere = await t.app.inject({
      method: 'PATCH',
      url: '/api/register/verify',
      payload: { code },
      headers: { host: 'other.localhost' },
    });
    expect(elsewhere.statusCode).toBe(422);
    expect((await verify(code)).statusCode).toBe(200);
    expect((await verify(code)).statusCode).toBe(422);
  });

  it('activates one account when the link is opened 30 times at once', async () => {
    expect((await register()).statusCode).toBe(200);
    const code = await verificationCode();
    const answers = await Promise.all(Array.from({ length: 30 }, () => verify(code)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    // The rest are spent links (422) or the per-IP limit of tries (429), never a second account.
    expect(answers.filter((a) => ![200, 422, 429].includes(a.statusCode))).toEqual([]);
    expect(await usersWith(EMAIL)).toHaveLength(1);
  });

  it('expires after 24 hours and throttles wrong codes per IP', async () => {
    await register();
    const code = await verificationCode();
    t.clock.advance(24 * 60 * 60_000 + 1000);
    expect((await verify(code)).json().errors.code).toEqual(['This verification link is invalid or has expired.']);
    for (let i = 0; i < 9; i++) await verify(`wrong-code-${i}`);
    expect((await verify('one-more-wrong')).statusCode).toBe(429);
  });

  it('re-sends a fresh link for a changed address that replaces the old one', async () => {
    const cookie = await registerAndActivate();
    const change = { current_password: PASSWORD, email: EMAIL.replace('new.', 'renamed.') };
    expect((await t.app.inject({ method: 'PATCH', url: '/api/account/email', headers: { cookie }, payload: change })).statusCode).toBe(200);
    const address = change.email;
    const codeOf = async () => new URL(await newestLinkTo(t.db, address, '/register/verify/')).pathname.split('/').pop() ?? '';
    const first = await codeOf();
    expect((await t.app.inject({ method: 'POST', url: '/api/register/resend', headers: { cookie } })).statusCode).toBe(200);
    const second = await codeOf();
    expect(second).not.toBe(first);
    expect((await verify(first)).statusCode).toBe(422);
    expect((await verify(second)).statusCode).toBe(200);
  });
});

describe('PATCH /api/account/email', () => {
  it('needs the current password, tells the old address, and the new one must be verified', async () => {
    const cookie = await registerAndActivate();
    const other = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: EMAIL, password: PASSWORD } });
    const otherCookie = sessionCookieFrom(other.headers['set-cookie']);
    const change = (payload: object) => t.app.inject({ method: 'PATCH', url: '/api/account/email', headers: { cookie }, payload });

    const wrong = await change({ current_password: 'not my password at all', email: 'moved@example.com' });
    expect(wrong.json().errors.current_password).toEqual(['The current password is not correct.']);
    const taken = await change({ current_password: PASSWORD, email: 'admin@localhost' });
    expect(taken.json().errors.email).toEqual(['An account with this e-mail address already exists.']);

    expect((await change({ current_password: PASSWORD, email: 'moved@example.com' })).statusCode).toBe(200);
    const me = (await t.app.inject({ url: '/api/user', headers: { cookie } })).json().data.user;
    expect(me).toMatchObject({ email: 'moved@example.com', email_verified: false });
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: otherCookie } })).statusCode).toBe(401);
    expect((await lastMailTo(t.db, EMAIL))?.subject).toMatch(/e-mail address .* was changed/i);
    const link = await newestLinkTo(t.db, 'moved@example.com', '/register/verify/');
    expect((await verify(new URL(link).pathname.split('/').pop() ?? '')).statusCode).toBe(200);
  });
});
