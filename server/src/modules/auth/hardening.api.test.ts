import { afterEach, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCustomer,
  createTestApp,
  login,
  sessionCookieFrom,
  type TestApp,
} from '../../../test/harness.ts';
import { newestLinkTo } from '../../../test/outbox.ts';
import { COMMON_PASSWORD_COUNT } from '../../lib/password-policy.ts';

let t: TestApp;
afterEach(async () => {
  await t.close();
});

const attempt = (email: string, password: string, options: { ip?: string; headers?: Record<string, string> } = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email, password, remember: true },
    ...(options.ip ? { remoteAddress: options.ip } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });

describe('login throttling', () => {
  it('locks the account from every IP, never another account, with case-folded e-mails', async () => {
    t = await createTestApp();
    const other = await createCustomer(t, 'bystander@localhost');
    for (let i = 0; i < 5; i++)
      await attempt(i % 2 ? ADMIN_EMAIL.toUpperCase() : ADMIN_EMAIL, `wrong password #${i}`, { ip: '203.0.113.1' });
    const elsewhere = await attempt(ADMIN_EMAIL, ADMIN_PASSWORD, { ip: '198.51.100.7' });
    expect(elsewhere.statusCode).toBe(429);
    expect(Number(elsewhere.headers['retry-after'])).toBeGreaterThan(0);
    expect((await attempt(other.email, other.password, { ip: '203.0.113.1' })).statusCode).toBe(200);
  });

  it('limits one IP across many accounts (100 failures in 15 minutes)', async () => {
    t = await createTestApp({ env: { ARGON2_TIME_COST: '2' } });
    for (let i = 0; i < 100; i++) await attempt(`nobody${i}@localhost`, 'wrong password here', { ip: '203.0.113.9' });
    expect((await attempt(ADMIN_EMAIL, ADMIN_PASSWORD, { ip: '203.0.113.9' })).statusCode).toBe(429);
    expect((await attempt(ADMIN_EMAIL, ADMIN_PASSWORD, { ip: '203.0.113.10' })).statusCode).toBe(200);
  }, 120_000);

  it('answers an unknown e-mail and a wrong password with the same status, body and headers', async () => {
    t = await createTestApp();
    const unknown = await attempt('ghost@localhost', 'some password here');
    const wrong = await attempt(ADMIN_EMAIL, 'some password here');
    const strip = (headers: Record<string, unknown>) => {
      const { date: _date, ...rest } = headers;
      return rest;
    };
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.body).toBe(wrong.body);
    expect(strip(unknown.headers)).toEqual(strip(wrong.headers));
  });
});

describe('proxies and HTTPS', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    t = await createTestApp();
    for (let i = 0; i < 5; i++) await attempt(ADMIN_EMAIL, `wrong ${i} password`, { headers: { 'x-forwarded-for': `192.0.2.${i}` } });
    const rows = await t.db.selectFrom('audit_log').select('ip').where('action', '=', 'auth.login.failure').execute();
    expect(new Set(rows.map((r) => r.ip))).toEqual(new Set(['127.0.0.1']));
    await t.close();

    t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    await attempt(ADMIN_EMAIL, 'wrong password again', { headers: { 'x-forwarded-for': '192.0.2.44' } });
    const trusted = await t.db.selectFrom('audit_log').select('ip').where('action', '=', 'auth.login.failure').execute();
    expect(trusted.map((r) => r.ip)).toEqual(['192.0.2.44']);
  });

  it('uses a __Host- prefixed Secure cookie over HTTPS', async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    const answer = await attempt(ADMIN_EMAIL, ADMIN_PASSWORD, { headers: { 'x-forwarded-proto': 'https' } });
    const cookie = String(answer.headers['set-cookie']);
    expect(cookie).toMatch(/^__Host-berth_session=/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Domain=/);
  });
});

describe('password rules', () => {
  it('checks against a bundled list of at least 10,000 common passwords', () => {
    expect(COMMON_PASSWORD_COUNT).toBeGreaterThanOrEqual(10_000);
  });

  it('still asks a 2FA user for the second factor after a reset', async () => {
    t = await createTestApp();
    const { cookie } = await login(t.app);
    const setup = await t.app.inject({
      method: 'POST',
      url: '/api/account/2fa/setup',
      headers: { cookie },
      payload: { password: ADMIN_PASSWORD },
    });
    const secret = setup.json().data.secret as string;
    await t.app.inject({
      method: 'POST',
      url: '/api/account/2fa/enable',
      headers: { cookie },
      payload: { code: await generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) }) },
    });
    await t.app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email: ADMIN_EMAIL } });
    const path = new URL(await newestLinkTo(t.db, ADMIN_EMAIL, '/password/reset/')).pathname;
    const password = 'a fresh passphrase after reset';
    const answer = await t.app.inject({ method: 'POST', url: `/api${path}`, payload: { password, password_confirmation: password } });
    expect(answer.json().data).toEqual({ status: 'two_factor_required' });
    const pending = sessionCookieFrom(answer.headers['set-cookie']);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: pending } })).statusCode).toBe(401);
  });
});

describe('caching, HSTS and remembered logins', () => {
  it('answers authenticated JSON and CSV with Cache-Control: no-store', async () => {
    t = await createTestApp();
    const { cookie } = await login(t.app);
    for (const url of ['/api/user', '/api/credit/export.csv', '/api/host/domain']) {
      const answer = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('sends HSTS only over HTTPS', async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    const plain = await t.app.inject({ method: 'GET', url: '/api/tenant' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const secure = await t.app.inject({ method: 'GET', url: '/api/tenant', headers: { 'x-forwarded-proto': 'https' } });
    expect(secure.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
  });

  it('gives an API login without `remember` a browser-session cookie, not a 30-day one', async () => {
    t = await createTestApp();
    const plain = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    expect(plain.statusCode).toBe(200);
    expect(String(plain.headers['set-cookie'])).not.toMatch(/Max-Age|Expires/i);
    const remembered = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, remember: true },
    });
    expect(String(remembered.headers['set-cookie'])).toMatch(/Max-Age=259\d{4}|Expires=/i);
  });
});
