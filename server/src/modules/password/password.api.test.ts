import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCustomer,
  createTestApp,
  login,
  sessionCookieFrom,
  type TestApp,
} from '../../../test/harness.ts';
import { mailsTo, newestLinkTo } from '../../../test/outbox.ts';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const NEW_PASSWORD = 'a brand new and long passphrase';

const forgot = (email: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email }, headers });

const reset = (path: string, password = NEW_PASSWORD, confirmation = password) =>
  t.app.inject({ method: 'POST', url: `/api${path}`, payload: { password, password_confirmation: confirmation } });

/** Requests a reset for the admin and answers the link's path (/password/reset/…). */
async function requestReset(): Promise<string> {
  expect((await forgot(ADMIN_EMAIL)).statusCode).toBe(200);
  return new URL(await newestLinkTo(t.db, ADMIN_EMAIL, '/password/reset/')).pathname;
}

describe('forgot password', () => {
  it('answers the same for unknown and known e-mails, and mails only the known one', async () => {
    const unknown = await forgot('nobody@localhost');
    const known = await forgot(ADMIN_EMAIL);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(await mailsTo(t.db, 'nobody@localhost')).toHaveLength(0);
    const mails = await mailsTo(t.db, ADMIN_EMAIL);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.html_body).toContain('/password/reset/');
  });

  it("links to the configured public URL, never to the request's Host header", async () => {
    await forgot(ADMIN_EMAIL, { host: 'evil.example' });
    const link = await newestLinkTo(t.db, ADMIN_EMAIL, '/password/reset/');
    expect(new URL(link).host).toBe('localhost:3000');
  });

  it('stores only a hash of a token of at least 128 bits', async () => {
    const path = await requestReset();
    const [, , , uniqId, token] = path.split('/');
    expect(Buffer.from(token ?? '', 'base64url').length).toBeGreaterThanOrEqual(16);
    const row = await t.db
      .selectFrom('password_resets')
      .selectAll()
      .where('uniq_id', '=', uniqId ?? '')
      .executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(token);
  });
});

describe('reset password', () => {
  it('sets the password, ends every other session and signs the user in', async () => {
    const before = await login(t.app);
    const path = await requestReset();
    const answer = await reset(path);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().message).toBe('Your password has been changed.');
    expect(answer.json().data.status).toBe('authenticated');
    expect(answer.headers['referrer-policy']).toBe('no-referrer');
    const cookie = sessionCookieFrom(answer.headers['set-cookie']);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: before.cookie } })).statusCode).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } })).statusCode,
    ).toBe(422);
    await login(t.app, ADMIN_EMAIL, NEW_PASSWORD);
    expect((await mailsTo(t.db, ADMIN_EMAIL)).map((m) => m.subject).join('\n')).toMatch(/password (was|has been) changed/i);
  });

  it('works once, and of two concurrent uses only one succeeds', async () => {
    const path = await requestReset();
    const [first, second] = await Promise.all([reset(path), reset(path, `${NEW_PASSWORD} two`)]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 422]);
    expect((await reset(path)).statusCode).toBe(422);
  });

  it('expires after 60 minutes and is voided by a newer request', async () => {
    const old = await requestReset();
    const newer = await requestReset();
    expect((await reset(old)).json()).toEqual({ message: 'This password reset link is invalid or has expired. Please request a new one.' });
    t.clock.advance(60 * 60_000 + 1000);
    expect((await reset(newer)).statusCode).toBe(422);
  });

  it('rejects a bad token and a weak password without spending the link', async () => {
    const path = await requestReset();
    expect((await reset(`${path.slice(0, -2)}xx`)).statusCode).toBe(422);
    const weak = await reset(path, 'short');
    expect(weak.statusCode).toBe(422);
    expect(weak.json().errors.password).toBeDefined();
    const mismatch = await reset(path, NEW_PASSWORD, `${NEW_PASSWORD}!`);
    expect(mismatch.json().errors.password_confirmation).toEqual(['The two passwords do not match.']);
    expect((await reset(path)).statusCode).toBe(200);
  });
});

describe('password policy (NIST SP 800-63B-4)', () => {
  it.each([
    ['fourteen chars', 'abcdefghijklmn', /at least 15 characters/],
    ['a breached password', '123456789987654321', /too common/],
    ['the e-mail itself', 'cleo.customer@localhost', /must not be your e-mail/],
  ])('refuses %s with a reason', async (_name, password, reason) => {
    const { email } = await createCustomer(t, 'cleo.customer@localhost');
    await forgot(email);
    const path = new URL(await newestLinkTo(t.db, email, '/password/reset/')).pathname;
    const answer = await reset(path, password);
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors.password[0]).toMatch(reason);
  });

  it('accepts 15 characters, long passphrases and any characters, and never truncates', async () => {
    const { cookie } = await login(t.app);
    const change = (current: string, next: string) =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/account/password',
        headers: { cookie },
        payload: { current_password: current, password: next, password_confirmation: next },
      });
    expect((await change(ADMIN_PASSWORD, 'exactly15chars!')).statusCode).toBe(200);
    const long = `${'ž'.repeat(70)}🙂 unicode and spaces ${'x'.repeat(100)}`;
    expect((await change('exactly15chars!', long)).statusCode).toBe(200);
    // The last character counts: a password differing only at the end does not log in.
    const almost = `${long.slice(0, -1)}y`;
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: ADMIN_EMAIL, password: almost } })).statusCode).toBe(
      422,
    );
    await login(t.app, ADMIN_EMAIL, long);
  });

  it('changing the own password needs the current one and ends the other sessions', async () => {
    const { cookie } = await login(t.app);
    const other = await login(t.app);
    const wrong = await t.app.inject({
      method: 'PATCH',
      url: '/api/account/password',
      headers: { cookie },
      payload: { current_password: 'not my password at all', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.current_password).toEqual(['The current password is not correct.']);
    const ok = await t.app.inject({
      method: 'PATCH',
      url: '/api/account/password',
      headers: { cookie },
      payload: { current_password: ADMIN_PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(ok.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: other.cookie } })).statusCode).toBe(401);
  });
});
