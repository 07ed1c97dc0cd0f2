import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { sessionAnswerSchema } from '@berth/contracts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, login, sessionCookieFrom, type TestApp } from '../../../test/harness.ts';
import { mailsTo } from '../../../test/outbox.ts';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const inject = (method: 'GET' | 'POST', url: string, cookie?: string, payload?: object) =>
  t.app.inject({ method, url, ...(cookie ? { headers: { cookie } } : {}), ...(payload ? { payload } : {}) });

/** A TOTP code for the test clock, `steps` periods away from now. */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) + steps * 30 });

/** Enables 2FA for the admin through the API and answers the secret and recovery codes. */
async function enableTwoFactor(cookie: string) {
  const setup = await inject('POST', '/api/account/2fa/setup', cookie, { password: ADMIN_PASSWORD });
  expect(setup.statusCode).toBe(200);
  const { secret, qr_code, otpauth_url } = setup.json().data;
  expect(qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
  expect(otpauth_url).toContain(`secret=${secret}`);
  const enable = await inject('POST', '/api/account/2fa/enable', cookie, { code: await codeAt(secret) });
  expect(enable.statusCode).toBe(200);
  // A code is spent once it enabled 2FA; the login step needs the next period.
  t.clock.advance(30_000);
  return { secret: secret as string, recoveryCodes: enable.json().data.recovery_codes as string[] };
}

/** The password step for a 2FA user: answers the pending cookie. */
async function passwordStep(remember = true) {
  const response = await inject('POST', '/api/login', undefined, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, remember });
  expect(response.json()).toEqual({ data: { status: 'two_factor_required' } });
  return sessionCookieFrom(response.headers['set-cookie']);
}

describe('enabling two-factor authentication', () => {
  it('needs the current password, confirms with a code, shows 10 recovery codes once and mails a notice', async () => {
    const { cookie } = await login(t.app);
    const other = await login(t.app);
    expect((await inject('POST', '/api/account/2fa/setup', cookie, { password: 'not the password at all' })).statusCode).toBe(422);

    const setup = await inject('POST', '/api/account/2fa/setup', cookie, { password: ADMIN_PASSWORD });
    const { secret } = setup.json().data;
    const wrong = await inject('POST', '/api/account/2fa/enable', cookie, {
      code: (Number(await codeAt(secret)) + 1).toString().padStart(6, '0').slice(-6),
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code).toBeDefined();

    const enable = await inject('POST', '/api/account/2fa/enable', cookie, { code: await codeAt(secret) });
    expect(enable.statusCode).toBe(200);
    const codes: string[] = enable.json().data.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/); // 16 × 5 bits = 80 bits
    }
    const stored = await t.db.selectFrom('recovery_codes').select('code_hash').execute();
    expect(stored).toHaveLength(10);
    expect(JSON.stringify(stored)).not.toContain(codes[0]?.replaceAll('-', ''));

    const me = await inject('GET', '/api/user', cookie);
    expect(me.json().data.user.google2fa_enabled).toBe(true);
    expect((await inject('GET', '/api/account/2fa', cookie)).json().data).toEqual({ enabled: true, recovery_codes_remaining: 10 });
    // Changing 2FA ends every other session.
    expect((await inject('GET', '/api/user', other.cookie)).statusCode).toBe(401);
    const mails = await mailsTo(t.db, ADMIN_EMAIL);
    expect(mails.map((m) => m.subject).join('\n')).toMatch(/two-factor/i);
  });

  it('disables with the password only, and then logins need no code', async () => {
    const { cookie } = await login(t.app);
    await enableTwoFactor(cookie);
    expect((await inject('POST', '/api/account/2fa/disable', cookie, { password: 'wrong password here' })).statusCode).toBe(422);
    expect((await inject('POST', '/api/account/2fa/disable', cookie, { password: ADMIN_PASSWORD })).statusCode).toBe(200);
    expect((await inject('GET', '/api/user', cookie)).json().data.user.google2fa_enabled).toBe(false);
    expect(await t.db.selectFrom('recovery_codes').selectAll().execute()).toEqual([]);
    expect((await login(t.app)).response.json().data.status).toBe('authenticated');
  });
});

describe('login with a second factor', () => {
  it('opens no API with the password step alone, then signs in with a fresh session id', async () => {
    const { cookie } = await login(t.app);
    const { secret } = await enableTwoFactor(cookie);
    const pending = await passwordStep();
    expect((await inject('GET', '/api/user', pending)).statusCode).toBe(401);
    expect((await inject('GET', '/api/account/2fa', pending)).statusCode).toBe(401);
    expect((await inject('GET', '/api/account/sessions', pending)).statusCode).toBe(401);

    const second = await inject('POST', '/api/login2fa', pending, { code: await codeAt(secret) });
    expect(second.statusCode).toBe(200);
    const body = sessionAnswerSchema.parse(second.json());
    expect(body.data.status).toBe('authenticated');
    const full = sessionCookieFrom(second.headers['set-cookie']);
    expect(full).not.toBe(pending);
    expect((await inject('GET', '/api/user', pending)).statusCode).toBe(401);
    expect((await inject('GET', '/api/user', full)).statusCode).toBe(200);
  });

  it('accepts codes one step off and refuses two steps off', async () => {
    const { cookie } = await login(t.app);
    const { secret } = await enableTwoFactor(cookie);
    for (const steps of [-2, 2]) {
      const pending = await passwordStep();
      expect((await inject('POST', '/api/login2fa', pending, { code: await codeAt(secret, steps) })).statusCode).toBe(422);
    }
    t.clock.advance(15 * 60_000); // past the failure window
    let pending = await passwordStep();
    expect((await inject('POST', '/api/login2fa', pending, { code: await codeAt(secret, -1) })).statusCode).toBe(200);
    t.clock.advance(60_000);
    pending = await passwordStep();
    expect((await inject('POST', '/api/login2fa', pending, { code: await codeAt(secret, 1) })).statusCode).toBe(200);
  });

  it('takes a code once: a replay fails and 10 concurrent submissions give one success', async () => {
    const { cookie } = await login(t.app);
    const { secret } = await enableTwoFactor(cookie);
    const code = await codeAt(secret);
    const first = await passwordStep();
    expect((await inject('POST', '/api/login2fa', first, { code })).statusCode).toBe(200);
    const replay = await passwordStep();
    expect((await inject('POST', '/api/login2fa', replay, { code })).statusCode).toBe(422);

    t.clock.advance(60_000);
    // Ten password steps one after another (each success clears the account's count), then the
    // same code from all ten sessions at once.
    const pendings: string[] = [];
    for (let i = 0; i < 10; i++) pendings.push(await passwordStep());
    const next = await codeAt(secret);
    const answers = await Promise.all(pendings.map((p) => inject('POST', '/api/login2fa', p, { code: next })));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
  });

  it('locks the second factor for 15 minutes after 5 wrong codes, across new logins and recovery codes', async () => {
    const { cookie } = await login(t.app);
    const { secret, recoveryCodes } = await enableTwoFactor(cookie);
    let pending = await passwordStep();
    for (let i = 0; i < 5; i++) {
      expect((await inject('POST', '/api/login2fa', pending, { code: '000000' })).statusCode).toBe(422);
    }
    const locked = await inject('POST', '/api/login2fa', pending, { code: await codeAt(secret) });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    pending = await passwordStep();
    expect((await inject('POST', '/api/login2fa', pending, { code: await codeAt(secret) })).statusCode).toBe(429);
    expect((await inject('POST', '/api/login2fa/recovery', pending, { code: recoveryCodes[0] })).statusCode).toBe(429);
    t.clock.advance(15 * 60_000 + 1000);
    pending = await passwordStep();
    expect((await inject('POST', '/api/login2fa', pending, { code: await codeAt(secret) })).statusCode).toBe(200);
  });

  it('lets a pending login expire after 10 minutes', async () => {
    const { cookie } = await login(t.app);
    const { secret } = await enableTwoFactor(cookie);
    const pending = await passwordStep();
    t.clock.advance(10 * 60_000 + 1000);
    expect((await inject('POST', '/api/login2fa', pending, { code: await codeAt(secret) })).statusCode).toBe(401);
  });
});

describe('recovery codes', () => {
  it('signs in once per code, even concurrently, and says so', async () => {
    const { cookie } = await login(t.app);
    const { recoveryCodes } = await enableTwoFactor(cookie);
    const code = recoveryCodes[3] ?? '';
    const pending = await passwordStep();
    const answer = await inject('POST', '/api/login2fa/recovery', pending, { code: code.toLowerCase() });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data.status).toBe('authenticated');
    expect(answer.json().message).toMatch(/recovery code/i);

    const again = await passwordStep();
    expect((await inject('POST', '/api/login2fa/recovery', again, { code })).statusCode).toBe(422);

    const other = recoveryCodes[4] ?? '';
    const racers = await Promise.all(Array.from({ length: 5 }, () => passwordStep()));
    const answers = await Promise.all(racers.map((p) => inject('POST', '/api/login2fa/recovery', p, { code: other })));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
  });

  it('regenerating needs the password and voids the old set', async () => {
    const { cookie } = await login(t.app);
    const { recoveryCodes } = await enableTwoFactor(cookie);
    expect((await inject('POST', '/api/account/2fa/recovery-codes', cookie, { password: 'wrong wrong wrong' })).statusCode).toBe(422);
    const fresh = await inject('POST', '/api/account/2fa/recovery-codes', cookie, { password: ADMIN_PASSWORD });
    expect(fresh.statusCode).toBe(200);
    const newCodes: string[] = fresh.json().data.recovery_codes;
    expect(newCodes).toHaveLength(10);
    const pending = await passwordStep();
    expect((await inject('POST', '/api/login2fa/recovery', pending, { code: recoveryCodes[0] })).statusCode).toBe(422);
    expect((await inject('POST', '/api/login2fa/recovery', pending, { code: newCodes[0] })).statusCode).toBe(200);
  });
});
