import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, sessionCookieFrom, type TestApp } from '../../../test/harness.ts';
import { solveAltcha } from '../../../test/captcha.ts';
import { lastMailTo, linkIn } from '../../../test/outbox.ts';

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
  const link = linkIn((await lastMailTo(t.db, EMAIL))?.text_body ?? '', '/register/verify/');
  return new URL(link).pathname.split('/').pop() ?? '';
}

describe('POST /api/registration', () => {
  it('creates an unverified customer, signs them in and mails a verification link', async () => {
    const answer = await register();
    expect(answer.statusCode).toBe(200);
    expect(answer.json().message).toMatch(/verify your address/);
    const data = answer.json().data;
    expect(data.status).toBe('authenticated');
    expect(data.user).toMatchObject({
      email: EMAIL,
      role: 'customer',
      email_verified: false,
      contact: { given_name: 'Nina', sn: 'Nováková' },
    });
    const cookie = sessionCookieFrom(answer.headers['set-cookie']);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(200);
    const mail = await lastMailTo(t.db, EMAIL);
    expect(mail?.subject).toBeTruthy();
    expect(await verificationCode()).toMatch(/^[\w-]{30,}$/);
  });

  it('writes the new user in the language of the form', async () => {
    const answer = await register({}, { 'accept-language': 'de-DE' });
    expect(answer.json().data.user.language).toBe('de');
    expect((await lastMailTo(t.db, EMAIL))?.html_body).toContain('lang="de"');
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
  });

  it('says when the e-mail is taken, and a captcha token works only once', async () => {
    const token = await solveAltcha(t.app);
    expect((await register({ g_recaptcha_response: token })).statusCode).toBe(200);
    const replay = await register({ g_recaptcha_response: token, email: 'other@example.com' });
    expect(replay.json().errors.g_recaptcha_response).toBeDefined();
    const taken = await register();
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.email).toEqual(['An account with this e-mail address already exists.']);
  });

  it('allows 5 registrations an hour per IP', async () => {
    for (let i = 0; i < 5; i++) expect((await register({ email: `n${i}@example.com` })).statusCode).toBe(200);
    const sixth = await register({ email: 'n6@example.com' });
    expect(sixth.statusCode).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(60 * 60_000 + 1000);
    expect((await register({ email: 'n6@example.com' })).statusCode).toBe(200);
  });
});

describe('PATCH /api/register/verify', () => {
  it('verifies once with the mailed code', async () => {
    const cookie = sessionCookieFrom((await register()).headers['set-cookie']);
    const code = await verificationCode();
    const answer = await verify(code);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().message).toBe('Thank you, your e-mail address is verified.');
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).json().data.user.email_verified).toBe(true);
    expect((await verify(code)).statusCode).toBe(422);
  });

  it('expires after 24 hours and throttles wrong codes per IP', async () => {
    await register();
    const code = await verificationCode();
    t.clock.advance(24 * 60 * 60_000 + 1000);
    expect((await verify(code)).json().errors.code).toEqual(['This verification link is invalid or has expired.']);
    for (let i = 0; i < 9; i++) await verify(`wrong-code-${i}`);
    expect((await verify('one-more-wrong')).statusCode).toBe(429);
  });

  it('re-sends a fresh link that replaces the old one', async () => {
    const cookie = sessionCookieFrom((await register()).headers['set-cookie']);
    const first = await verificationCode();
    expect((await t.app.inject({ method: 'POST', url: '/api/register/resend', headers: { cookie } })).statusCode).toBe(200);
    const second = await verificationCode();
    expect(second).not.toBe(first);
    expect((await verify(first)).statusCode).toBe(422);
    expect((await verify(second)).statusCode).toBe(200);
  });
});

describe('PATCH /api/account/email', () => {
  it('needs the current password, tells the old address, and the new one must be verified', async () => {
    const cookie = sessionCookieFrom((await register()).headers['set-cookie']);
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
    const link = linkIn((await lastMailTo(t.db, 'moved@example.com'))?.text_body ?? '', '/register/verify/');
    expect((await verify(new URL(link).pathname.split('/').pop() ?? '')).statusCode).toBe(200);
  });
});
