import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, login, type TestApp } from '../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  // A built web app as the real build lays it out: index.html plus hashed assets.
  const dist = mkdtempSync(join(tmpdir(), 'berth-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><html><head><title>Berth</title><link rel="modulepreload" fetchpriority="low" crossorigin href="/admin/assets/app-1234.js"></head><body><div id="root"></div></body></html>',
  );
  writeFileSync(join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
  writeFileSync(
    join(dist, 'route-preloads.json'),
    JSON.stringify([
      { pattern: '^/login(/[^/]*)?$', scripts: ['/admin/assets/login-1.js'], styles: ['/admin/assets/login-1.css'] },
      { pattern: '', scripts: ['/admin/assets/shell-1.js'], styles: [], data: ['/api/user'] },
    ]),
  );
  t = await createTestApp({ webDistDir: dist });
});
afterAll(async () => {
  await t.close();
});

describe('serving the panel', () => {
  it.each(['/', '/login', '/login/admin%40localhost', '/host/domain/5/edit', '/password/reset/a/b'])(
    'answers the SPA for GET %s',
    async (url) => {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.body).toContain('<div id="root">');
    },
  );

  it("links the path's own chunks from the page, and revalidates the page by its ETag", async () => {
    const login = await t.app.inject({ url: '/login' });
    // Behind the stylesheets: the page paints before its scripts are in.
    expect(login.body).toContain('<link rel="modulepreload" fetchpriority="low" crossorigin href="/admin/assets/login-1.js">');
    expect(login.body).toContain('<link rel="stylesheet" crossorigin href="/admin/assets/login-1.css">');
    expect(login.body).not.toContain('shell-1.js');
    const dashboard = await t.app.inject({ url: '/dashboard?x=1' });
    expect(dashboard.body).toContain('href="/admin/assets/shell-1.js"');
    expect(dashboard.headers.etag).not.toBe(login.headers.etag);
    const again = await t.app.inject({ url: '/login', headers: { 'if-none-match': String(login.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it("fetches the shell's first API answers with the page only for a visitor with a session cookie", async () => {
    const preload = '<link rel="preload" as="fetch" crossorigin="anonymous" href="/api/user">';
    expect((await t.app.inject({ url: '/dashboard' })).body).not.toContain(preload);
    const withCookie = await t.app.inject({ url: '/dashboard', headers: { cookie: 'berth_session=abc' } });
    expect(withCookie.body).toContain(preload);
    expect(withCookie.headers.vary).toMatch(/cookie/);
  });

  it('sends someone signed in from /login on to the dashboard before any script runs', async () => {
    const { cookie } = await login(t.app);
    const answer = await t.app.inject({ url: '/login', headers: { cookie } });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/dashboard');
    expect((await t.app.inject({ url: '/login', headers: { cookie: 'berth_session=unknown' } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/dashboard', headers: { cookie } })).statusCode).toBe(200);
  });

  it('serves built assets under /admin/ with a long cache', async () => {
    const response = await t.app.inject({ url: '/admin/assets/app-1234.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ url: '/admin/assets/missing.js' })).statusCode).toBe(404);
  });

  it('answers JSON 404 for unknown API paths instead of the SPA', async () => {
    const response = await t.app.inject({ url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found.' });
  });

  it('sends a strict Content-Security-Policy and the other security headers', async () => {
    const response = await t.app.inject({ url: '/login' });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('reports health with a database check', async () => {
    const response = await t.app.inject({ url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok', redis: 'off', storage: 'ok' });
  });

  it('publishes the OpenAPI document with the login call', async () => {
    const response = await t.app.inject({ url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/login', '/api/logout', '/api/user', '/api/health']));
    expect(doc.paths['/api/login'].post.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
  });

  it('answers the public tenant of the host name', async () => {
    const response = await t.app.inject({ url: '/api/tenant', headers: { host: 'unknown.example' } });
    expect(response.json()).toEqual({
      data: { id: 1, title: 'Berth', config: { admin_logo: null, admin_logo_footer: null, host_purchases: null } },
    });
  });
});
