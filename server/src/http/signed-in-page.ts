// A signed-in page comes with its content: the server renders the app's shell and page for the
// session's user (web/src/prerender/shellPage.tsx, built into web/dist-prerender/) from the same
// API answers the app would ask for, so a phone shows the page with the stylesheets alone while
// the app's scripts arrive; the app then starts from those answers and takes the page over
// (web/src/prerender/handoff.ts). Anything that goes wrong gives the plain page, as before.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import {
  inlineStyleRules,
  shellBootSchema,
  takeOutInlineStyles,
  TIME_ZONE_COOKIE,
  type LanguageCode,
  type ShellBoot,
  type ShellPage,
  type ShellPageRequest,
} from '@berth/contracts';
import { escapeHtml } from '../lib/html.ts';

interface ShellPageModule {
  renderShellPage(request: ShellPageRequest): Promise<ShellPage | undefined>;
}

/** Where the page's inline styles go: a stylesheet whose address holds them, signed by this server. */
export const PAGE_STYLES_PREFIX = '/admin/page-styles/';
/** A render slower than this is not waited for: the plain page goes out. */
const RENDER_BUDGET_MS = 1_500;
/** The screens outside the shell (the app's AuthLayout, web/src/routes.tsx): never rendered here. */
const OUTSIDE_SHELL = /^\/(login|login2fa|register|change-password)(\/|$)|^\/password\//;
/** The menu is a drawer below 62em (web/src/shell/ShellFrame.tsx): phones and small tablets. */
const PHONE_AGENT = /Mobi|Android|iPhone|iPod/;

/** A path's own chunks and stylesheets beyond the entry's (dist/route-preloads.json). */
export interface RouteAssets {
  scripts: string[];
  styles: string[];
}

export interface SignedInPages {
  /** The page with its content and the answers it was made with, or undefined for the plain page. */
  render(request: FastifyRequest, language: LanguageCode, assets: RouteAssets): Promise<string | undefined>;
}

/** The browser's time zone from the app's cookie, if it names one this server knows. */
function timeZoneOf(request: FastifyRequest): string | undefined {
  const named = request.cookies[TIME_ZONE_COOKIE];
  if (named === undefined || named.length > 64) return undefined;
  try {
    return new Intl.DateTimeFormat('en', { timeZone: named }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** The app's root with the boot dots that the built index.html paints until a script runs. */
const BOOT_ROOT = /<div id="root">[\s\S]*?<\/div>\s*<\/div>/;
const ENTRY_TAG = /\s*<script type="module" crossorigin src="[^"]+"><\/script>/;
const PRELOAD_TAG = /\s*<link rel="modulepreload"[^>]*>/g;

export function rendersInShell(path: string): boolean {
  return !OUTSIDE_SHELL.test(path);
}

/**
 * The renderer, when the build made one. `sign` makes the stylesheet addresses unforgeable (only
 * what this server rendered is ever served as a stylesheet of the site).
 */
export async function loadSignedInPages(
  app: FastifyInstance,
  distDir: string,
  sign: (value: string) => string,
): Promise<SignedInPages | undefined> {
  const bundle = path.join(distDir, '..', 'dist-prerender', 'shellPage.js');
  const bootFile = path.join(distDir, 'shell-boot.json');
  if (!existsSync(bundle) || !existsSync(bootFile)) return undefined;
  const module = (await import(pathToFileURL(bundle).href)) as ShellPageModule;
  const boot = shellBootSchema.parse(JSON.parse(readFileSync(bootFile, 'utf8')));
  // index.html without the app's scripts, which the boot script asks for once the page is painted.
  const template = readFileSync(path.join(distDir, 'index.html'), 'utf8').replace(ENTRY_TAG, '').replace(PRELOAD_TAG, '');

  // A wildcard: a parameter stops at 100 characters (the router's maxParamLength).
  app.get(`${PAGE_STYLES_PREFIX}*`, async (request, reply) => {
    const file = (request.params as { '*': string })['*'];
    const css = pageStylesheet(file, sign);
    if (css === undefined) return reply.code(404).send({ message: 'Not found.' });
    return reply
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .type('text/css; charset=utf-8')
      .send(css);
  });

  return {
    async render(request, language, assets) {
      const cookie = request.headers.cookie ?? '';
      const send = async (url: string): Promise<Response> => {
        const answer = await app.inject({
          method: 'GET',
          url,
          remoteAddress: request.ip,
          headers: {
            cookie,
            accept: 'application/json',
            ...(request.headers.host ? { host: request.headers.host } : {}),
            ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
            ...(request.headers['accept-language'] ? { 'accept-language': request.headers['accept-language'] } : {}),
          },
        });
        return new Response(answer.payload === '' ? null : answer.payload, { status: answer.statusCode });
      };
      const agent = request.headers['user-agent'] ?? '';
      const mobileHint = request.headers['sec-ch-ua-mobile'];
      const wide = mobileHint === undefined ? !PHONE_AGENT.test(agent) : mobileHint !== '?1';
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), RENDER_BUDGET_MS);
      });
      try {
        const page = await Promise.race([
          module.renderShellPage({
            url: request.url,
            language,
            wide,
            host: request.headers.host ?? '',
            timeZone: timeZoneOf(request),
            deadline: Date.now() + RENDER_BUDGET_MS,
            send,
          }),
          late,
        ]);
        if (!page) return undefined;
        const { markup, styles } = withoutInlineStyles(page.markup);
        if (styles === undefined) return undefined;
        return pageHtml(template, boot, assets, { markup, state: page.state, language, stylesheet: stylesheetAddress(styles, sign) });
      } catch (error) {
        request.log.warn({ err: error }, 'the signed-in page could not be rendered on the server');
        return undefined;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** What a declaration taken out of a style attribute may hold: nothing that leaves its rule or loads anything. */
const SAFE_DECLARATIONS = /^[^{}<>@\\]*$/;

/**
 * style="..." -> data-ss="n" (the CSP applies no inline style), the declaration lists in order;
 * undefined if one of them is not plainly a declaration list.
 */
export function withoutInlineStyles(html: string): { markup: string; styles: string[] | undefined } {
  const { markup, styles } = takeOutInlineStyles(html, 'ss');
  const list = [...styles.keys()];
  const unsafe = list.some((style) => !SAFE_DECLARATIONS.test(style) || /url\(/i.test(style));
  return { markup, styles: unsafe ? undefined : list };
}

function stylesheetAddress(styles: string[], sign: (value: string) => string): string {
  const payload = deflateRawSync(JSON.stringify(styles)).toString('base64url');
  return `${PAGE_STYLES_PREFIX}${payload}.${sign(payload)}.css`;
}

/** The stylesheet a signed address stands for; undefined for any other. */
export function pageStylesheet(file: string, sign: (value: string) => string): string | undefined {
  const match = /^([A-Za-z0-9_-]{1,6000})\.([A-Za-z0-9_-]{16,64})\.css$/.exec(file);
  if (!match?.[1] || !match[2]) return undefined;
  const expected = Buffer.from(sign(match[1]));
  const given = Buffer.from(match[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  let styles: unknown;
  try {
    styles = JSON.parse(inflateRawSync(Buffer.from(match[1], 'base64url'), { maxOutputLength: 256 * 1024 }).toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(styles)) return undefined;
  return inlineStyleRules('ss', styles.map(String));
}

function pageHtml(
  template: string,
  boot: ShellBoot,
  assets: RouteAssets,
  page: { markup: string; state: unknown; language: LanguageCode; stylesheet: string },
): string {
  const head = [
    ...assets.styles.map((href) => `<link rel="stylesheet" crossorigin href="${href}">`),
    `<link rel="stylesheet" crossorigin href="${page.stylesheet}">`,
    `<script type="module" crossorigin src="${boot.boot}"></script>`,
  ];
  const root = [
    `<div id="prerender" data-language="${page.language}" data-state="${escapeHtml(JSON.stringify(page.state))}"`,
    ` data-entry="${boot.entry}" data-scripts="${escapeHtml(JSON.stringify([...boot.scripts, ...assets.scripts]))}" inert>`,
    `${page.markup}</div>\n    <div id="root"></div>`,
  ].join('');
  return template
    .replace('<html lang="en"', `<html lang="${page.language}"`)
    .replace('</head>', `  ${head.join('\n    ')}\n  </head>`)
    .replace(BOOT_ROOT, () => root);
}
