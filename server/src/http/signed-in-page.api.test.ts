import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, login, type TestApp } from '../../test/harness.ts';
import { PAGE_STYLES_PREFIX, withoutInlineStyles } from './signed-in-page.ts';

// The server's side of a server-rendered signed-in page: which requests get one, what goes into
// it and around it, and the plain page whenever the render fails. The renderer here is a small
// module in the place of the build's (web/dist-prerender/shellPage.js, which asks the API like
// this one does); the real one is driven in a browser by e2e/specs/signed-in-page.spec.ts.
const RENDERER = `
export async function renderShellPage({ url, language, wide, timeZone, send }) {
  const answer = await send('/api/user', { method: 'GET' });
  const user = (await answer.json()).data.user;
  const name = user.contact.display_name;
  const style = new URL(url, 'http://x').searchParams.get('style') ?? 'color:var(--mantine-color-red-6);font-size:14px';
  if (url.startsWith('/broken')) throw new Error('the render failed');
  if (url.startsWith('/slow')) await new Promise((resolve) => setTimeout(resolve, 3000));
  const escape = (text) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;');
  return {
    markup: '<main style="' + escape(style) + '"><h1>' + escape(name) + '</h1><p>' + escape(url) + ' ' + language + ' ' + (wide ? 'wide' : 'phone') + ' ' + (timeZone ?? 'no zone') + '</p></main>',
    state: { queries: [{ queryKey: ['user'], state: { data: { user: { name } } } }] },
  };
}
`;

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'berth-web-'));
  const dist = join(root, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  mkdirSync(join(root, 'dist-prerender'));
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><html lang="en"><head><title>Berth</title>' +
      '<script type="module" crossorigin src="/admin/assets/index-1.js"></script>' +
      '<link rel="modulepreload" fetchpriority="low" crossorigin href="/admin/assets/react-1.js">' +
      '</head><body><div id="root">\n<div class="berth-boot">dots</div>\n</div></body></html>',
  );
  writeFileSync(
    join(dist, 'route-preloads.json'),
    JSON.stringify([{ pattern: '^/dashboard$', scripts: ['/admin/assets/Dashboard-1.js'], styles: ['/admin/assets/Dashboard-1.css'] }]),
  );
  writeFileSync(
    join(dist, 'shell-boot.json'),
    JSON.stringify({ boot: '/admin/assets/page-boot-1.js', entry: '/admin/assets/index-1.js', scripts: ['/admin/assets/react-1.js'] }),
  );
  writeFileSync(join(root, 'dist-prerender', 'shellPage.js'), RENDERER);
  t = await createTestApp({ webDistDir: dist });
  await t.db.updateTable('users').set({ given_name: 'Ada <Admin>', sn: '& "Co"' }).where('id', '=', 1).execute();
  ({ cookie } = await login(t.app));
});
afterAll(async () => {
  await t.close();
});

const page = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { cookie, ...headers } });
const prerendered = (body: string) => /<div id="prerender"[^>]*>([\s\S]*?)<\/div>\n/.exec(body)?.[1];
const attribute = (body: string, name: string) => new RegExp(`<div id="prerender"[^>]*\\s${name}="([^"]*)"`).exec(body)?.[1];
const unescape = (value: string) =>
  value.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&#39;', "'").replaceAll('&amp;', '&');

describe('a signed-in page', () => {
  it("comes with the user's page in it, made from the API's answers, and the app's scripts asked for after it is painted", async () => {
    const answer = await page('/dashboard');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('private, no-cache');
    expect(answer.headers.vary).toMatch(/cookie/);
    const body = answer.body;
    // The render's markup as it made it (escaped by it, as React does).
    expect(prerendered(body)).toContain('<h1>Ada &lt;Admin> &amp; &quot;Co&quot;</h1>');
    expect(prerendered(body)).toContain('/dashboard en wide no zone');
    expect(body).toMatch(/<div id="prerender"[^>]* inert>/);
    // The answers it was made with, for the app to start from.
    const state = JSON.parse(unescape(attribute(body, 'data-state') ?? '')) as { queries: { state: { data: unknown } }[] };
    expect(state.queries[0]?.state.data).toEqual({ user: { name: 'Ada <Admin> & "Co"' } });
    // No script but the boot one: the entry and its chunks are for that one to load.
    expect([...body.matchAll(/<script[^>]*>/g)].map((match) => match[0])).toEqual([
      '<script type="module" crossorigin src="/admin/assets/page-boot-1.js">',
    ]);
    expect(body).not.toContain('modulepreload');
    expect(attribute(body, 'data-entry')).toBe('/admin/assets/index-1.js');
    expect(JSON.parse(unescape(attribute(body, 'data-scripts') ?? ''))).toEqual([
      '/admin/assets/react-1.js',
      '/admin/assets/Dashboard-1.js',
    ]);
    expect(body).toContain('<link rel="stylesheet" crossorigin href="/admin/assets/Dashboard-1.css">');
    expect(body).not.toContain('berth-boot');
  });

  it('has no inline style (the CSP applies none): its declarations come from a stylesheet only this server makes', async () => {
    const body = (await page('/dashboard')).body;
    expect(body).not.toMatch(/ style="/);
    expect(prerendered(body)).toContain('<main data-ss="0">');
    const address = new RegExp(`href="(${PAGE_STYLES_PREFIX}[^"]+)"`).exec(body)?.[1] ?? '';
    const css = await t.app.inject({ url: address });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect(css.headers['cache-control']).toMatch(/immutable/);
    expect(css.body).toBe('[data-ss="0"]{color:var(--mantine-color-red-6) !important;font-size:14px !important}');
    // Another server's signature, or none, or a changed list: nothing.
    const [payload] = address.slice(PAGE_STYLES_PREFIX.length).split('.');
    for (const forged of [`${payload}.AAAAAAAAAAAAAAAAAAAAAA.css`, `${payload}.css`, `x${address.slice(PAGE_STYLES_PREFIX.length)}`]) {
      expect((await t.app.inject({ url: `${PAGE_STYLES_PREFIX}${forged}` })).statusCode).toBe(404);
    }
  });

  it("is in the user's language, and laid out for a phone when the browser is one", async () => {
    await t.app.inject({ method: 'PATCH', url: '/api/user/language', headers: { cookie }, payload: { language: 'de' } });
    const phone = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
    const body = (await page('/dashboard', { 'user-agent': phone })).body;
    expect(body).toContain('<html lang="de"');
    expect(prerendered(body)).toContain('/dashboard de phone');
    expect(prerendered((await page('/dashboard', { 'user-agent': phone, 'sec-ch-ua-mobile': '?0' })).body)).toContain('de wide');
    await t.app.inject({ method: 'PATCH', url: '/api/user/language', headers: { cookie }, payload: { language: 'en' } });
  });

  it("shows dates in the browser's time zone once the app has said which (a cookie), and ignores a zone it does not know", async () => {
    const zone = (value: string) => page('/dashboard', { cookie: `${cookie}; berth_time_zone=${value}` });
    expect(prerendered((await zone('Pacific%2FKiritimati')).body)).toContain('wide Pacific/Kiritimati');
    expect(prerendered((await zone('Mars%2FOlympus')).body)).toContain('wide no zone');
    expect(prerendered((await zone('x'.repeat(100))).body)).toContain('wide no zone');
  });

  it('is the plain page for a visitor, on the screens outside the shell, and whenever the render fails or is slow', async () => {
    const plain = (body: string) => body.includes('berth-boot') && !body.includes('id="prerender"');
    expect(plain((await t.app.inject({ url: '/dashboard' })).body)).toBe(true);
    expect(plain((await t.app.inject({ url: '/dashboard', headers: { cookie: 'berth_session=not-a-session' } })).body)).toBe(true);
    for (const url of ['/register', '/password/forgot', '/login2fa', '/change-password'])
      expect(plain((await page(url)).body), url).toBe(true);
    const broken = await page('/broken');
    expect(broken.statusCode).toBe(200);
    expect(plain(broken.body)).toBe(true);
    expect(plain((await page('/slow')).body)).toBe(true);
    // A declaration that would leave its rule is not carried into a stylesheet.
    expect(plain((await page(`/dashboard?style=${encodeURIComponent('color:red}body{display:none')}`)).body)).toBe(true);
    expect(plain((await page(`/dashboard?style=${encodeURIComponent('background:url(https://example.com/x)')}`)).body)).toBe(true);
  });
});

describe('inline styles taken out of rendered markup', () => {
  it('numbers each distinct declaration list once, decoded', () => {
    const { markup, styles } = withoutInlineStyles(
      '<a style="color:red"></a><b style="font-family:&quot;x&quot;"></b><i style="color:red"></i>',
    );
    expect(markup).toBe('<a data-ss="0"></a><b data-ss="1"></b><i data-ss="0"></i>');
    expect(styles).toEqual(['color:red', 'font-family:"x"']);
  });
});
