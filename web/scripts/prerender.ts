// After `vite build`: the login page rendered to HTML in each language (src/prerender/loginPage.tsx),
// written as dist/login.<language>.html beside index.html, which the server sends for /login
// (server/src/http/web-app.ts). Inline style attributes, which the CSP (style-src 'self') would
// refuse to apply, become rules of one stylesheet of their own.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { build } from 'vite';
import { LANGUAGES } from '@berth/contracts';

const webDir = path.resolve(import.meta.dirname, '..');
const distDir = path.join(webDir, 'dist');
// Inside web/ so the bundle's imports of node_modules resolve.
const ssrDir = path.join(webDir, 'dist-prerender');
const BASE = '/admin/';

await build({
  root: webDir,
  configFile: path.join(webDir, 'vite.config.ts'),
  logLevel: 'warn',
  build: { ssr: 'src/prerender/loginPage.tsx', outDir: ssrDir, emptyOutDir: true, minify: false },
});

const { renderLoginPage } = (await import(path.join(ssrDir, 'loginPage.js'))) as {
  renderLoginPage: (language: string) => Promise<string>;
};

const decode = (value: string) =>
  value.replaceAll('&quot;', '"').replaceAll('&#x27;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

/** style="..." -> data-ps="n", and the rule `[data-ps="n"]` that applies the same declarations. */
const rules = new Map<string, number>();
const withoutInlineStyles = (html: string) =>
  html.replace(/ style="([^"]*)"/g, (_match, style: string) => {
    let id = rules.get(style);
    if (id === undefined) {
      id = rules.size;
      rules.set(style, id);
    }
    return ` data-ps="${id}"`;
  });

const pages = new Map<string, string>();
for (const language of LANGUAGES) pages.set(language, withoutInlineStyles(await renderLoginPage(language)));
rmSync(ssrDir, { recursive: true, force: true });

// An inline style outranks the stylesheets; so do these, being !important.
const css = [...rules]
  .map(([style, id]) => {
    const declarations = decode(style)
      .split(';')
      .filter((declaration) => declaration.trim() !== '')
      .map((declaration) => `${declaration.trim()} !important`);
    return `[data-ps="${id}"]{${declarations.join(';')}}`;
  })
  .join('\n');
const cssName = `assets/prerender-${createHash('sha256').update(css).digest('base64url').slice(0, 8)}.css`;
const compressedCopies = (file: string, content: Buffer) => {
  writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } }));
  writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
};
writeFileSync(path.join(distDir, cssName), css);
compressedCopies(path.join(distDir, cssName), Buffer.from(css));

// The app's scripts start once the page has been painted: until then the stylesheets have the
// connection to themselves (on a slow phone network the scripts took it for seconds), and what
// the visitor sees first no longer waits on them. A script of our own does it: the CSP allows no
// inline one.
const index = readFileSync(path.join(distDir, 'index.html'), 'utf8');
const entryTag = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
const preloadTag = /\s*<link rel="modulepreload"[^>]* href="([^"]+)">/g;
const entry = entryTag.exec(index)?.[1];
if (!entry) throw new Error('dist/index.html has no module script');
const routes = JSON.parse(readFileSync(path.join(distDir, 'route-preloads.json'), 'utf8')) as {
  pattern: string;
  scripts: string[];
  styles: string[];
}[];
const loginRoute = routes.find((route) => new RegExp(route.pattern).test('/login'));
if (!loginRoute) throw new Error('dist/route-preloads.json has no entry for /login');
const scripts = [...[...index.matchAll(preloadTag)].map((match) => match[1] ?? ''), ...loginRoute.scripts];
const boot = [
  '// Loads the app once the prerendered login page is painted (web/scripts/prerender.ts).',
  'let started = false;',
  'const start = () => {',
  '  if (started) return;',
  '  started = true;',
  `  for (const href of ${JSON.stringify(scripts)}) {`,
  "    const link = document.createElement('link');",
  "    link.rel = 'modulepreload';",
  "    link.crossOrigin = '';",
  '    link.href = href;',
  '    document.head.append(link);',
  '  }',
  `  void import(${JSON.stringify(entry)});`,
  '};',
  '// The frame after the first one that was painted.',
  'requestAnimationFrame(() => setTimeout(start, 0));',
  '// A page opened in a background tab paints no frame until it is shown.',
  'setTimeout(start, 1000);',
  '',
].join('\n');
const bootName = `assets/login-boot-${createHash('sha256').update(boot).digest('base64url').slice(0, 8)}.js`;
writeFileSync(path.join(distDir, bootName), boot);
compressedCopies(path.join(distDir, bootName), Buffer.from(boot));

const root = /<div id="root">[\s\S]*?<\/div>\s*<\/div>/;
if (!root.test(index)) throw new Error('dist/index.html has no #root with the boot dots to replace');
const head = [
  ...loginRoute.styles.map((href) => `<link rel="stylesheet" crossorigin href="${href}">`),
  `<link rel="stylesheet" crossorigin href="${BASE}${cssName}">`,
  `<script type="module" crossorigin src="${BASE}${bootName}"></script>`,
];
for (const [language, markup] of pages) {
  const html = index
    .replace('<html lang="en"', `<html lang="${language}"`)
    .replace(entryTag, '')
    .replace(preloadTag, '')
    .replace('</head>', `  ${head.join('\n    ')}\n  </head>`)
    // Inert until the app replaces it: what is typed into it would be lost.
    .replace(root, `<div id="prerender" data-language="${language}" inert>${markup}</div>\n    <div id="root"></div>`);
  writeFileSync(path.join(distDir, `login.${language}.html`), html);
}
process.stdout.write(`prerendered /login in ${[...pages.keys()].join(', ')} (${rules.size} inline styles -> ${cssName})\n`);
