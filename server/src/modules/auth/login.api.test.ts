import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_REMEMBER_MS, currentUserAnswerSchema, sessionAnswerSchema } from '@berth/contracts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, login, sessionCookieFrom, type TestApp } from '../../../test/harness.ts';
import { sha256 } from '../../lib/tokens.ts';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

describe('POST /api/login', () => {
  it('answers the user session and sets an httpOnly SameSite=Lax cookie whose hash alone is stored', async () => {
    const { response, cookie } = await login(t.app, 'ADMIN@LocalHost');
    const body = sessionAnswerSchema.parse(response.json());
    expect(body.data.status).toBe('authenticated');
    if (body.data.status !== 'authenticated') return;
    expect(body.data.user).toMatchObject({ email: ADMIN_EMAIL, is_super_admin: true, google2fa_enabled: false });
    expect(body.data.user.contact.display_name).toBe('Super Admin');
    expect(body.data.tenant.id).toBe(1);

    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    const token = cookie.split('=')[1] ?? '';
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const rows = await t.db.selectFrom('sessions').select('id_hash').execute();
    expect(rows).toEqual([{ id_hash: sha256(token) }]);
  });

  it('makes a remembered session last 30 days and a plain one end with the browser', async () => {
    const remembered = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD, true);
    const expires = /Expires=([^;]+)/.exec(String(remembered.response.headers['set-cookie']))?.[1];
    expect(new Date(expires ?? 0).getTime()).toBe(t.clock.now().getTime() + SESSION_REMEMBER_MS - (t.clock.now().getTime() % 1000));

    const plain = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD, false);
    expect(String(plain.response.headers['set-cookie'])).not.toMatch(/Expires|Max-Age/);
  });

  it('gives the same 422 on the e-mail field for an unknown e-mail and a wrong password', async () => {
    const unknown = await post('/api/login', { email: 'nobody@localhost', password: 'whatever it is here', remember: true });
    const wrong = await post('/api/login', { email: ADMIN_EMAIL, password: 'whatever it is here', remember: true });
    expect(unknown.statusCode).toBe(422);
    expect(wrong.statusCode).toBe(422);
    expect(unknown.body).toBe(wrong.body);
    expect(unknown.json()).toEqual({
      message: 'These credentials do not match our records.',
      errors: { email: ['These credentials do not match our records.'] },
    });
    expect(unknown.headers['set-cookie']).toBeUndefined();
  });

  it('answers per-field errors for missing fields and 400 for unreadable JSON, never a 500', async () => {
    const empty = await post('/api/login', {});
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json().errors).sort()).toEqual(['email', 'password']);

    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.body).not.toMatch(/at .*\.ts|stack/i);
  });

  it('translates errors into the language the browser asks for', async () => {
    const response = await post('/api/login', { email: 'x@y', password: 'nope' }, { 'accept-language': 'cs-CZ,cs;q=0.9' });
    expect(response.json().errors.email).toEqual(['Tyto přihlašovací údaje neodpovídají našim záznamům.']);
  });

  it('rotates the session id: the cookie from before login no longer works afterwards', async () => {
    const first = await login(t.app);
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { cookie: first.cookie },
      payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, remember: true },
    });
    const secondCookie = sessionCookieFrom(second.headers['set-cookie']);
    expect(secondCookie).not.toBe(first.cookie);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: first.cookie } })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: secondCookie } })).statusCode).toBe(200);
  });

  it('locks an account out after 5 failures in 15 minutes, even for the right password, then lets it in', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await post('/api/login', { email: ADMIN_EMAIL, password: `wrong password ${i}` })).statusCode).toBe(422);
    }
    const blocked = await post('/api/login', { email: 'Admin@localhost', password: ADMIN_PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(15 * 60 * 1000 + 1000);
    expect((await post('/api/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).statusCode).toBe(200);
  });

  it('records success and failure in the audit log without the password', async () => {
    await post('/api/login', { email: ADMIN_EMAIL, password: 'a wrong password!' });
    await login(t.app);
    const rows = await t.db.selectFrom('audit_log').select(['action', 'user_id', 'data']).orderBy('id').execute();
    expect(rows.map((r) => r.action)).toEqual(['auth.login.failure', 'auth.login.success']);
    expect(JSON.stringify(rows)).not.toContain(ADMIN_PASSWORD);
  });
});

describe('GET /api/user and sessions', () => {
  it('answers 401 without a session and the user with one', async () => {
    expect((await t.app.inject({ url: '/api/user' })).statusCode).toBe(401);
    const { cookie } = await login(t.app);
    const response = await t.app.inject({ url: '/api/user', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    const body = currentUserAnswerSchema.parse(response.json());
    expect(body.data.user.email).toBe(ADMIN_EMAIL);
    expect(body.data.tenant).toEqual({
      id: 1,
      title: 'Berth',
      config: { admin_logo: null, admin_logo_footer: null, host_purchases: null },
    });
  });

  it('ends a plain session after 2 hours idle but keeps an active one alive', async () => {
    const { cookie } = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD, false);
    t.clock.advance(110 * 60 * 1000);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(200);
    t.clock.advance(110 * 60 * 1000);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(200);
    t.clock.advance(2 * 60 * 60 * 1000 + 1000);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(401);
  });

  it('ends a plain session 24 hours after login however active it is', async () => {
    const { cookie } = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD, false);
    for (let hour = 1; hour < 24; hour++) {
      t.clock.advance(60 * 60 * 1000);
      expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(200);
    }
    t.clock.advance(60 * 60 * 1000);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(401);
  });

  it('keeps a remembered session for 30 days, idle or not', async () => {
    const { cookie } = await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD, true);
    t.clock.advance(29 * 24 * 60 * 60 * 1000);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(200);
    t.clock.advance(24 * 60 * 60 * 1000 + 1000);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(401);
  });

  it('logout deletes the session row and clears the cookie', async () => {
    const { cookie } = await login(t.app);
    const response = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['set-cookie'])).toMatch(/berth_session=;/);
    expect(await t.db.selectFrom('sessions').selectAll().execute()).toEqual([]);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(401);
  });
});

describe('CSRF (Fetch Metadata)', () => {
  const body = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, remember: true };

  it.each([
    ['cross-site fetch metadata', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
    ['same-site fetch metadata from another host', { 'sec-fetch-site': 'same-site', origin: 'http://other.localhost' }],
    ['a foreign Origin without fetch metadata', { origin: 'https://evil.example' }],
  ])('refuses login with %s', async (_name, headers) => {
    const response = await post('/api/login', body, headers);
    expect(response.statusCode).toBe(403);
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a cross-site logout and keeps the session', async () => {
    const { cookie } = await login(t.app);
    const response = await post('/api/logout', {}, { cookie, 'sec-fetch-site': 'cross-site' });
    expect(response.statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(200);
  });

  it('accepts same-origin browsers, the own Origin and clients without browser headers', async () => {
    expect((await post('/api/login', body, { 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect((await post('/api/login', body, { origin: 'http://localhost', host: 'localhost' })).statusCode).toBe(200);
    expect((await post('/api/login', body)).statusCode).toBe(200);
  });
});
