// After `vite build`: the login page rendered to HTML in each language and variant of tenant
// (src/prerender/loginPage.tsx), written as dist/login.<language>.<variant>.html beside index.html;
// the server fills in the host's tenant and sends it for /login (server/src/http/web-app.ts).
// Inline style attributes, which the CSP (style-src 'self') would refuse to apply, become rules of
// one stylesheet of their own.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeCompressedCopies } from './compress.ts';
import { build } from 'vite';
import {
  LANGUAGES,
  LOGIN_PAGE_VARIANTS,
  PASSKEY_DEVICE_KEY,
  inlineStyleRules,
  routePreloadsSchema,
  shellBootSchema,
  type ShellBoot,
  takeOutInlineStyles,
  TENANT_MARKERS,
  variantName,
  type LanguageCode,
  type LoginPageVariant,
} from '@berth/contracts';

const webDir = path.resolve(import.meta.dirname, '..');
const distDir = path.join(webDir, 'dist');
// Inside web/ so the bundle's imports of node_modules resolve.
const ssrDir = path.join(webDir, 'dist-prerender');
const BASE = '/admin/';

await build({
  root: webDir,
  configFile: path.join(webDir, 'vite.config.ts'),
  logLevel: 'warn',
  // The login page's render runs here; the shell's runs in the server, per request
  // (server/src/http/signed-in-page.ts), which imports it from this folder.
  build: {
    ssr: true,
    rollupOptions: { input: { loginPage: 'src/prerender/loginPage.tsx', shellPage: 'src/prerender/shellPage.tsx' } },
    outDir: ssrDir,
    emptyOutDir: true,
    minify: false,
  },
});

const { renderLoginPage } = (await import(path.join(ssrDir, 'loginPage.js'))) as {
  renderLoginPage: (language: LanguageCode, variant: LoginPageVariant) => Promise<string>;
};

/** Every page's inline styles, numbered across pages: one stylesheet serves them all. */
const rules = new Map<string, number>();

const pages = new Map<string, { language: LanguageCode; markup: string }>();
for (const language of LANGUAGES) {
  for (const variant of LOGIN_PAGE_VARIANTS) {
    const rendered = await renderLoginPage(language, variant);
    // React completes a boundary it outlined with an inline script, which the CSP would refuse.
    if (rendered.includes('<script')) throw new Error(`the login page (${language}, ${variantName(variant)}) came with an inline script`);
    const { markup } = takeOutInlineStyles(rendered, 'ps', rules);
    pages.set(`${language}.${variantName(variant)}`, { language, markup });
  }
}

const css = inlineStyleRules('ps', [...rules.keys()]);
const cssName = `assets/prerender-${createHash('sha256').update(css).digest('base64url').slice(0, 8)}.css`;
writeFileSync(path.join(distDir, cssName), css);
writeCompressedCopies(path.join(distDir, cssName), Buffer.from(css));

// The app's scripts start when the visitor starts using the page (scripts/login-boot.js): the page
// is complete without them. A script of our own does it: the CSP allows no inline one.
const index = readFileSync(path.join(distDir, 'index.html'), 'utf8');
const entryTag = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
const preloadTag = /\s*<link rel="modulepreload"[^>]* href="([^"]+)">/g;
const entry = entryTag.exec(index)?.[1];
if (!entry) throw new Error('dist/index.html has no module script');
const routes = routePreloadsSchema.parse(JSON.parse(readFileSync(path.join(distDir, 'route-preloads.json'), 'utf8')));
const loginRoute = routes.find((route) => new RegExp(route.pattern).test('/login'));
if (!loginRoute) throw new Error('dist/route-preloads.json has no entry for /login');
const scripts = [...[...index.matchAll(preloadTag)].map((match) => match[1] ?? ''), ...loginRoute.scripts];
const boot = readFileSync(path.join(webDir, 'scripts/login-boot.js'), 'utf8')
  .replace('__SCRIPTS__', JSON.stringify(scripts))
  .replace('__ENTRY__', JSON.stringify(entry))
  .replace('__PASSKEY_DEVICE_KEY__', JSON.stringify(PASSKEY_DEVICE_KEY));
const bootName = `assets/login-boot-${createHash('sha256').update(boot).digest('base64url').slice(0, 8)}.js`;
writeFileSync(path.join(distDir, bootName), boot);
writeCompressedCopies(path.join(distDir, bootName), Buffer.from(boot));

// Signed-in pages the server renders (server/src/http/signed-in-page.ts) ask for the app's scripts
// once painted: their one script, and what it loads.
const pageBoot = readFileSync(path.join(webDir, 'scripts/page-boot.js'), 'utf8');
const pageBootName = `assets/page-boot-${createHash('sha256').update(pageBoot).digest('base64url').slice(0, 8)}.js`;
writeFileSync(path.join(distDir, pageBootName), pageBoot);
writeCompressedCopies(path.join(distDir, pageBootName), Buffer.from(pageBoot));
const shellBoot: ShellBoot = {
  boot: `${BASE}${pageBootName}`,
  entry,
  scripts: [...index.matchAll(preloadTag)].map((match) => match[1] ?? ''),
};
writeFileSync(path.join(distDir, 'shell-boot.json'), JSON.stringify(shellBootSchema.parse(shellBoot)));

const root = /<div id="root">[\s\S]*?<\/div>\s*<\/div>/;
if (!root.test(index)) throw new Error('dist/index.html has no #root with the boot dots to replace');
const head = [
  ...loginRoute.styles.map((href) => `<link rel="stylesheet" crossorigin href="${href}">`),
  `<link rel="stylesheet" crossorigin href="${BASE}${cssName}">`,
  `<script type="module" crossorigin src="${BASE}${bootName}"></script>`,
];
for (const [name, { language, markup }] of pages) {
  const html = index
    .replace('<html lang="en"', `<html lang="${language}"`)
    .replace(entryTag, '')
    .replace(preloadTag, '')
    .replace('</head>', `  ${head.join('\n    ')}\n  </head>`)
    // Inert until its script runs (scripts/login-boot.js); the tenant for the app to start with.
    .replace(
      root,
      `<div id="prerender" data-language="${language}" data-tenant="${TENANT_MARKERS.json}" inert>${markup}</div>\n    <div id="root"></div>`,
    );
  writeFileSync(path.join(distDir, `login.${name}.html`), html);
}
process.stdout.write(`prerendered /login as ${[...pages.keys()].join(', ')} (${rules.size} inline styles -> ${cssName})\n`);
