import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, login, type TestApp } from '../../test/harness.ts';

// A build with the login page prerendered in two languages (web/scripts/prerender.ts writes all three).
let t: TestApp;
beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'berth-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><body><div id="root">dots</div></body></html>');
  const page = (language: string, heading: string) =>
    `<!doctype html><html lang="${language}"><body><div id="prerender" data-language="${language}" inert><h1>${heading}</h1></div><div id="root"></div></body></html>`;
  writeFileSync(join(dist, 'login.en.html'), page('en', 'Log in to your account'));
  writeFileSync(join(dist, 'login.de.html'), page('de', 'Bei Ihrem Konto anmelden'));
  writeFileSync(join(dist, 'login.cs.html'), page('cs', 'Přihlášení k účtu'));
  writeFileSync(join(dist, 'route-preloads.json'), JSON.stringify([{ pattern: '^/login(/[^/]*)?$', scripts: [], styles: [] }]));
  t = await createTestApp({ webDistDir: dist });
});
afterAll(async () => {
  await t.close();
});

const languageOf = (body: string) => /data-language="(\w+)"/.exec(body)?.[1];

describe('the prerendered login page', () => {
  it("is sent in the browser's language, and caches say the answer depends on it", async () => {
    const german = await t.app.inject({ url: '/login', headers: { 'accept-language': 'de-AT,de;q=0.9,en;q=0.8' } });
    expect(german.statusCode).toBe(200);
    expect(languageOf(german.body)).toBe('de');
    expect(german.body).toContain('Bei Ihrem Konto anmelden');
    expect(german.headers.vary).toMatch(/accept-language/);
    expect(languageOf((await t.app.inject({ url: '/login/' })).body)).toBe('en');
    // A language the panel does not speak falls back to English, as the web app does.
    expect(languageOf((await t.app.inject({ url: '/login', headers: { 'accept-language': 'fr-FR' } })).body)).toBe('en');
  });

  it('is sent in the language picked by hand on this device, whatever the browser says', async () => {
    const picked = await t.app.inject({ url: '/login', headers: { 'accept-language': 'de', cookie: 'berth_language=cs' } });
    expect(languageOf(picked.body)).toBe('cs');
    // A cookie the panel did not write counts for nothing.
    const bogus = await t.app.inject({ url: '/login', headers: { 'accept-language': 'de', cookie: 'berth_language=<script>' } });
    expect(languageOf(bogus.body)).toBe('de');
  });

  it('is revalidated per language by its ETag', async () => {
    const english = await t.app.inject({ url: '/login' });
    const german = await t.app.inject({ url: '/login', headers: { 'accept-language': 'de' } });
    expect(english.headers.etag).not.toBe(german.headers.etag);
    const again = await t.app.inject({ url: '/login', headers: { 'accept-language': 'de', 'if-none-match': String(german.headers.etag) } });
    expect(again.statusCode).toBe(304);
  });

  it('is not sent where the address is part of the path, nor on other pages, nor to someone signed in', async () => {
    const withAddress = await t.app.inject({ url: '/login/admin%40localhost' });
    expect(withAddress.body).toContain('<div id="root">dots</div>');
    expect(withAddress.body).not.toContain('prerender');
    expect((await t.app.inject({ url: '/register' })).body).not.toContain('prerender');
    const { cookie } = await login(t.app);
    expect((await t.app.inject({ url: '/login', headers: { cookie } })).statusCode).toBe(303);
  });
});
