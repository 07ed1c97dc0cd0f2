import type { FastifyInstance, FastifyRequest } from 'fastify';
import negotiate from '@fastify/accept-negotiator';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import {
  LANGUAGE_COOKIE,
  LANGUAGES,
  LOGIN_PAGE_VARIANTS,
  offersOtpLogin,
  routePreloadsSchema,
  TENANT_MARKERS,
  variantName,
  type LanguageCode,
  type Tenant,
} from '@berth/contracts';
import { escapeHtml } from '../lib/html.ts';
import { loadSignedInPages, rendersInShell, type RouteAssets } from './signed-in-page.ts';
import { isLanguage, translate } from '../i18n/messages.ts';

export const defaultWebDistDir = fileURLToPath(new URL('../../../web/dist/', import.meta.url));

/** Answers smaller than this go out as they are: compressing them costs more than it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

const LOGIN_PATH = /^\/login(\/[^/]*)?$/;
/** Where the build's prerendered login page is sent (not with an address filled in: /login/:email). */
const PRERENDERED_LOGIN_PATH = /^\/login\/?$/;

type Encoding = 'br' | 'gzip';
const ENCODINGS: Encoding[] = ['br', 'gzip'];

/**
 * JSON answers, compressed per request above COMPRESS_THRESHOLD_BYTES with @fastify/compress's
 * defaults (brotli at a low quality: the build's level 11 would cost more time than it saves).
 * Registered before the routes so its hook covers all of them.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, { global: true, threshold: COMPRESS_THRESHOLD_BYTES, encodings: ENCODINGS });
}

/** One version of index.html, ready to send: as it is and compressed, with its ETag. */
interface Page {
  html: string;
  etag: string;
  compressed: Record<Encoding, Buffer>;
}

const pageOf = (html: string): Page => ({
  html,
  etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`,
  compressed: {
    br: brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } }),
    gzip: gzipSync(html, { level: 9 }),
  },
});

/** Behind the stylesheets, like the build's own preloads in index.html (web/vite.config.ts). */
const SCRIPT_PRIORITY = 'fetchpriority="low"';

/** The page for a path, for a visitor without a session cookie and for one with it, and the path's chunks and stylesheets. */
interface PagePair {
  anonymous: Page;
  withSession: Page;
  assets: RouteAssets;
}

/**
 * index.html once per entry of dist/route-preloads.json, with that path's chunks and stylesheets
 * linked from <head>: the browser fetches them beside the entry instead of after it has run.
 */
function pagesByPath(distDir: string, builtHtml: string): (path: string) => PagePair {
  const plainPage = pageOf(builtHtml);
  const plain = { anonymous: plainPage, withSession: plainPage, assets: { scripts: [], styles: [] } };
  const preloadsPath = `${distDir}/route-preloads.json`;
  if (!existsSync(preloadsPath)) return () => plain;
  const withLinks = (links: string[]) => pageOf(builtHtml.replace('</head>', `    ${links.join('\n    ')}\n  </head>`));
  const routes = routePreloadsSchema.parse(JSON.parse(readFileSync(preloadsPath, 'utf8'))).map((route) => {
    const links = [
      ...route.styles.map((href) => `<link rel="stylesheet" crossorigin href="${href}">`),
      ...route.scripts.map((href) => `<link rel="modulepreload" ${SCRIPT_PRIORITY} crossorigin href="${href}">`),
    ];
    // API answers only for a visitor with a session: for anyone else they would be 401s.
    const data = (route.data ?? []).map((href) => `<link rel="preload" as="fetch" crossorigin="anonymous" href="${href}">`);
    const anonymous = withLinks(links);
    return {
      pattern: new RegExp(route.pattern),
      pages: { anonymous, withSession: data.length ? withLinks([...data, ...links]) : anonymous, assets: route },
    };
  });
  return (path) => routes.find((route) => route.pattern.test(path))?.pages ?? plain;
}

/**
 * Built assets live under /admin/ (hashed names, cached for a year and never asked for again);
 * every other GET that is not an API call answers the SPA's index.html, which the router then
 * matches and the browser revalidates (ETag) on each visit. Assets go out as the brotli or gzip
 * copy written at build time (web/vite.config.ts) when the browser accepts it.
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  options: {
    /** The language of the request's signed-in user (second factor done), if there is one. */
    signedIn: (request: FastifyRequest) => Promise<{ language: LanguageCode } | undefined>;
    /** Signs what only this server may make (the addresses of server-rendered pages' styles). */
    sign?: (value: string) => string;
    /** Whether the request carries a session cookie at all (not whether it is valid). */
    hasSessionCookie: (request: FastifyRequest) => boolean;
    /** The public tenant of the request's host (GET /api/tenant), for the prerendered login page. */
    tenantOf: (request: FastifyRequest) => Promise<Tenant>;
  },
): Promise<void> {
  const indexPath = `${distDir}/index.html`;
  const pageFor = existsSync(indexPath) ? pagesByPath(distDir, readFileSync(indexPath, 'utf8')) : undefined;
  const loginPage = prerenderedLoginPages(distDir);
  const signedInPages = options.sign && existsSync(indexPath) ? await loadSignedInPages(app, distDir, options.sign) : undefined;

  if (existsSync(distDir)) {
    await app.register(fastifyStatic, {
      root: distDir,
      prefix: '/admin/',
      index: false,
      wildcard: true,
      preCompressed: true,
      setHeaders: (res, path) => {
        res.header('cache-control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      request.url !== '/api' &&
      !request.url.startsWith('/admin/');
    if (!isPage) return reply.code(404).send({ message: translate(request.lang, 'http.not_found') });
    if (!pageFor) return reply.code(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    const path = request.url.split('?')[0] ?? '/';
    // Someone signed in who opens /login goes on to the dashboard before any script runs, so the
    // login screen needs no GET /api/user (a 401 there is an error in every visitor's console).
    // The plain page when the session cannot be read now (the database away): the app says why.
    const user = options.hasSessionCookie(request) ? await options.signedIn(request).catch(() => undefined) : undefined;
    if (LOGIN_PATH.test(path) && user) return reply.redirect('/dashboard', 303);
    if (user && signedInPages && request.method === 'GET' && rendersInShell(path)) {
      const html = await signedInPages.render(request, user.language, pageFor(path).assets);
      if (html) {
        reply.header('cache-control', 'private, no-cache').header('vary', 'accept-encoding, cookie').type('text/html; charset=utf-8');
        // Made for this request: compressed quickly rather than small.
        const encoding = negotiate(request.headers['accept-encoding'] ?? '', ENCODINGS);
        if (encoding === 'br')
          return reply.header('content-encoding', 'br').send(brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }));
        if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(gzipSync(html, { level: 6 }));
        return reply.send(html);
      }
    }
    // The reset page's URL holds a token: it must not leak to any other site as a Referer.
    if (request.url.startsWith('/password/reset/')) reply.header('referrer-policy', 'no-referrer');
    const prerendered = PRERENDERED_LOGIN_PATH.test(path)
      ? loginPage(visitorLanguage(request), await options.tenantOf(request))
      : undefined;
    const page = prerendered ?? (options.hasSessionCookie(request) ? pageFor(path).withSession : pageFor(path).anonymous);
    reply
      .header('cache-control', 'no-cache')
      .header('etag', page.etag)
      .header('vary', prerendered ? 'accept-encoding, cookie, accept-language' : 'accept-encoding, cookie');
    if (request.headers['if-none-match'] === page.etag) return reply.code(304).send();
    reply.type('text/html; charset=utf-8');
    // The not-found handler is no route: the compression hook does not see it.
    const encoding = negotiate(request.headers['accept-encoding'] ?? '', ENCODINGS);
    if (encoding) return reply.header('content-encoding', encoding).send(page.compressed[encoding]);
    return reply.send(page.html);
  });
}

/**
 * /login with the screen already in the page (web/scripts/prerender.ts): one template per language
 * and variant of tenant, into which the host's tenant goes (its title, logo, the year, and the
 * tenant as JSON for the app). Each page is made and compressed once per language and tenant as it
 * is then, and kept (a tenant's change makes another).
 */
function prerenderedLoginPages(distDir: string): (language: LanguageCode, tenant: Tenant) => Page | undefined {
  const templates = new Map<string, string>();
  for (const language of LANGUAGES) {
    for (const variant of LOGIN_PAGE_VARIANTS) {
      const name = `${language}.${variantName(variant)}`;
      const file = `${distDir}/login.${name}.html`;
      if (existsSync(file)) templates.set(name, readFileSync(file, 'utf8'));
    }
  }
  const made = new Map<string, Page>();
  return (language, tenant) => {
    const logo = tenant.config.admin_logo;
    const template = templates.get(`${language}.${variantName({ logo: Boolean(logo), otp: offersOtpLogin(tenant.id) })}`);
    if (template === undefined) return undefined;
    const year = String(new Date().getFullYear());
    const json = JSON.stringify({ id: tenant.id, title: tenant.title, config: tenant.config });
    const key = `${language}\n${year}\n${json}`;
    let page = made.get(key);
    if (!page) {
      const html = template
        .replaceAll(TENANT_MARKERS.json, escapeHtml(json))
        .replaceAll(TENANT_MARKERS.logo, escapeHtml(logo ?? ''))
        .replaceAll(TENANT_MARKERS.title, escapeHtml(tenant.title))
        .replaceAll(TENANT_MARKERS.year, year);
      page = pageOf(html);
      // Tenants are few; a bound all the same, for titles that change all day.
      if (made.size >= 500) made.clear();
      made.set(key, page);
    }
    return page;
  };
}

/**
 * The language the web app starts in for this visitor (web/src/i18n/i18n.ts): the one picked on
 * this device (remembered in a cookie as well), else the browser's.
 */
function visitorLanguage(request: FastifyRequest): LanguageCode {
  const picked = request.cookies[LANGUAGE_COOKIE];
  return picked !== undefined && isLanguage(picked) ? picked : request.lang;
}
