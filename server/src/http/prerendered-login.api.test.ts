import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOGIN_PAGE_VARIANTS, OPERATOR_TENANT_ID, TENANT_MARKERS, tenantSchema, variantName } from '@berth/contracts';
import { createTestApp, login, type TestApp } from '../../test/harness.ts';
import { addTenant } from '../../test/hosting.ts';

// A build with the login page prerendered per language and variant of tenant, as
// web/scripts/prerender.ts writes it: the tenant's title, logo, the year and its JSON are markers.
let t: TestApp;
let resellerHost: string;
beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'berth-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><body><div id="root">dots</div></body></html>');
  const headings = { en: 'Log in to your account', de: 'Bei Ihrem Konto anmelden', cs: 'Přihlášení k účtu' };
  for (const [language, heading] of Object.entries(headings)) {
    for (const variant of LOGIN_PAGE_VARIANTS) {
      const brand = variant.logo
        ? `<img src="${TENANT_MARKERS.logo}" alt="${TENANT_MARKERS.title}">`
        : `<span>${TENANT_MARKERS.title}</span>`;
      const otp = variant.otp ? '<a href="/password/otp">one-time code</a>' : '';
      const page =
        `<!doctype html><html lang="${language}"><body><div id="prerender" data-language="${language}" data-tenant="${TENANT_MARKERS.json}" inert>` +
        `${brand}<h1>${heading}</h1>${otp}<footer>© ${TENANT_MARKERS.year} ${TENANT_MARKERS.title}</footer></div><div id="root"></div></body></html>`;
      writeFileSync(join(dist, `login.${language}.${variantName(variant)}.html`), page);
    }
  }
  writeFileSync(join(dist, 'route-preloads.json'), JSON.stringify([{ pattern: '^/login(/[^/]*)?$', scripts: [], styles: [] }]));
  t = await createTestApp({ webDistDir: dist });
  resellerHost = 'reseller.example.test';
  await addTenant(t, 'Anchor & <Sons> "Hosting"', resellerHost);
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

  it("holds the host's tenant: its title escaped, its logo, this year, and the tenant for the app", async () => {
    const operator = await t.app.inject({ url: '/login' });
    expect(operator.body).not.toMatch(/BerthTenant|9f3c/);
    expect(operator.body).toContain(`© ${new Date().getFullYear()} Berth`);
    // The operator's host offers the one-time-code login; another tenant's does not.
    expect(operator.body).toContain('one-time code');

    const reseller = await t.app.inject({ url: '/login', headers: { host: resellerHost } });
    expect(reseller.body).toContain('<span>Anchor &amp; &lt;Sons&gt; &quot;Hosting&quot;</span>');
    expect(reseller.body).not.toContain('<Sons>');
    expect(reseller.body).not.toContain('one-time code');
    expect(reseller.headers.etag).not.toBe(operator.headers.etag);
    const json = /data-tenant="([^"]*)"/.exec(reseller.body)?.[1] ?? '';
    const tenant = tenantSchema.parse(
      JSON.parse(json.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&')),
    );
    expect(tenant).toMatchObject({ title: 'Anchor & <Sons> "Hosting"', config: { admin_logo: null } });
    expect(tenant.id).not.toBe(OPERATOR_TENANT_ID);
    expect(tenant).toEqual((await t.app.inject({ url: '/api/tenant', headers: { host: resellerHost } })).json().data);

    // With a logo, the logo; and a change to the tenant is in the next page.
    await t.db.updateTable('tenants').set({ admin_logo: '/api/tenant/logo?v=2' }).where('id', '=', tenant.id).execute();
    t.services.tenants.clear();
    const withLogo = await t.app.inject({ url: '/login', headers: { host: resellerHost } });
    expect(withLogo.body).toContain('<img src="/api/tenant/logo?v=2" alt="Anchor &amp; &lt;Sons&gt; &quot;Hosting&quot;">');
    expect(withLogo.headers.etag).not.toBe(reseller.headers.etag);
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
