import { readdirSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { test, expect } from '../support/fixtures.ts';
import { repoRoot } from '../support/server.ts';

// What a browser downloads: every built script and stylesheet goes out brotli-compressed to a
// browser that accepts it, as it is to one that does not, and is cached for good (hashed names).

const assetsDir = path.join(repoRoot, 'web/dist/assets');

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http, not fetch: fetch would decompress the body and hide what went over the wire. */
function rawGet(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    }).on('error', reject);
  });
}

test('every built JS and CSS asset is served brotli to a browser that accepts it and plain to one that does not', async ({
  berth,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', "the server's answers do not depend on the viewport");
  const assets = readdirSync(assetsDir).filter((name) => /\.(js|css)$/.test(name));
  expect(assets.length).toBeGreaterThan(20);
  let plainBytes = 0;
  let brotliBytes = 0;
  for (const name of assets) {
    const url = `${berth.baseURL}/admin/assets/${name}`;
    const original = readFileSync(path.join(assetsDir, name));

    const compressed = await rawGet(url, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(compressed.status, name).toBe(200);
    expect(compressed.headers['content-encoding'], name).toBe('br');
    expect(compressed.headers.vary, name).toMatch(/accept-encoding/i);
    expect(compressed.headers['cache-control'], name).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(compressed.body).equals(original), name).toBe(true);

    const plain = await rawGet(url, {});
    expect(plain.status, name).toBe(200);
    expect(plain.headers['content-encoding'], name).toBeUndefined();
    expect(plain.body.equals(original), name).toBe(true);

    plainBytes += plain.body.length;
    brotliBytes += compressed.body.length;
  }
  expect(brotliBytes).toBeLessThan(plainBytes / 2);
});

test('the page itself is compressed and revalidated: a second visit gets 304 without a body', async ({ berth }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', "the server's answers do not depend on the viewport");
  // /login with an address in the path: the page as the build writes it, without the prerendered screen.
  const url = `${berth.baseURL}/login/admin%40localhost`;
  const first = await rawGet(url, { 'accept-encoding': 'br' });
  expect(first.status).toBe(200);
  expect(first.headers['content-encoding']).toBe('br');
  expect(first.headers['cache-control']).toBe('no-cache');
  const html = brotliDecompressSync(first.body).toString('utf8');
  // Loading dots paint before any script has run.
  expect(html).toMatch(/<div id="root">\s*<!--[^>]*-->\s*<div class="berth-boot"/);
  // The login screen's own chunks are linked from the page, so they load beside the entry.
  expect(html).toMatch(/<link rel="modulepreload" fetchpriority="low" crossorigin href="\/admin\/assets\/LoginScreen-[\w-]+\.js">/);
  // Every script preload, the build's and the route's, waits behind the stylesheets.
  expect(html.match(/<link rel="modulepreload"/g)?.length).toBeGreaterThan(3);
  expect(html).not.toMatch(/<link rel="modulepreload" (?!fetchpriority="low")/);
  // The scripts every page runs at start ask Chromium to compile them whole off the main thread
  // (web/vite.config.ts); the login screen's own small chunk does not.
  const preloaded = [...html.matchAll(/<link rel="modulepreload"[^>]* href="\/admin\/assets\/([^"]+)">/g)].map((match) => match[1] ?? '');
  const hinted = (name: string) => readFileSync(path.join(assetsDir, name), 'utf8').startsWith('//# allFunctionsCalledOnLoad\n');
  const shared = preloaded.filter((name) => /^(react|mantine|libs|app)-/.test(name));
  expect(shared).toHaveLength(4);
  for (const name of shared) expect(hinted(name), name).toBe(true);
  expect(preloaded.filter((name) => name.startsWith('LoginScreen-')).map(hinted)).toEqual([false]);
  const etag = String(first.headers.etag);
  const again = await rawGet(url, { 'accept-encoding': 'br', 'if-none-match': etag });
  expect(again.status).toBe(304);
  expect(again.body.length).toBe(0);
  const plain = await rawGet(url, {});
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body.toString('utf8')).toContain('<div class="berth-boot"');
});

test('/login comes with the screen in the page, and its scripts start only once the visitor uses it', async ({ berth }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', "the server's answers do not depend on the viewport");
  const first = await rawGet(`${berth.baseURL}/login`, { 'accept-encoding': 'br' });
  expect(first.headers['content-encoding']).toBe('br');
  expect(first.headers.vary).toMatch(/accept-language/);
  const html = brotliDecompressSync(first.body).toString('utf8');
  expect(html).toMatch(/<div id="prerender" data-language="en" data-tenant="[^"]+" inert>/);
  expect(html).toContain('Log in to your account</h1>');
  // No inline style (the CSP would refuse it): its declarations are in a stylesheet of their own.
  expect(html).not.toMatch(/<div id="prerender"[\s\S]* style="/);
  expect(html).toMatch(/<link rel="stylesheet" crossorigin href="\/admin\/assets\/prerender-[\w-]+\.css">/);
  // One small script, which links and starts the app's when the visitor starts using the page.
  expect(html).not.toContain('rel="modulepreload"');
  const scripts = [...html.matchAll(/<script[^>]* src="\/admin\/assets\/([^"]+)"/g)].map((match) => match[1] ?? '');
  expect(scripts).toHaveLength(1);
  const boot = readFileSync(path.join(assetsDir, scripts[0] ?? ''), 'utf8');
  expect(boot).toContain('pointerdown');
  for (const chunk of ['react', 'mantine', 'libs', 'app', 'LoginScreen', 'AuthLayout', 'index'])
    expect(boot).toMatch(new RegExp(`/admin/assets/${chunk}-[\\w-]+\\.js`));
  const again = await rawGet(`${berth.baseURL}/login`, { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
  expect(again.status).toBe(304);
});
