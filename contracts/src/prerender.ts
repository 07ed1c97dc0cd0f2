import { z } from 'zod';
import type { LanguageCode } from './constants.ts';

/**
 * The build's login page (web/src/prerender/loginPage.tsx) is rendered for a made-up tenant: these
 * stand for its title, logo address, the footer's year and the tenant as JSON (for the app, on
 * #prerender), and the server puts in the host's own (server/src/http/web-app.ts). Plain letters
 * and digits: nothing the renderer would escape.
 */
export const TENANT_MARKERS = {
  title: 'BerthTenantTitle9f3c',
  logo: '/BerthTenantLogo9f3c',
  year: 'BerthYear9f3c',
  json: 'BerthTenantJson9f3c',
} as const;

/**
 * localStorage key set on a device where a passkey of this site was added or used: there the
 * prerendered /login starts the app at once, so the browser can offer the passkey in the e-mail
 * field's autofill as the page opens (web/scripts/login-boot.js, web/src/api/passkeys.ts).
 */
export const PASSKEY_DEVICE_KEY = 'berth_passkey_device';

/** What changes the markup of the login screen beside the markers: a logo or the title, and the one-time-code button. */
export interface LoginPageVariant {
  logo: boolean;
  otp: boolean;
}

export const LOGIN_PAGE_VARIANTS: LoginPageVariant[] = [
  { logo: false, otp: false },
  { logo: false, otp: true },
  { logo: true, otp: false },
  { logo: true, otp: true },
];

/** The file name part of a variant: dist/login.<language>.<variant>.html. */
export const variantName = (variant: LoginPageVariant): string => `${variant.logo ? 'logo' : 'title'}-${variant.otp ? 'otp' : 'plain'}`;

/**
 * dist/route-preloads.json, written by the web build (web/vite.config.ts): per path pattern, the
 * chunks and stylesheets its screen needs beyond the entry's, and API answers to preload for a
 * visitor with a session. The server links them from the page (server/src/http/web-app.ts), the
 * build's login page from its boot script (web/scripts/prerender.ts).
 */
export const routePreloadsSchema = z.array(
  z.object({ pattern: z.string(), scripts: z.array(z.string()), styles: z.array(z.string()), data: z.array(z.string()).optional() }),
);
export type RoutePreloads = z.infer<typeof routePreloadsSchema>;

/**
 * dist/shell-boot.json, written by the web build (web/scripts/prerender.ts): for a signed-in page
 * the server rendered (server/src/http/signed-in-page.ts), its one script, and the app's entry and
 * shared chunks, which that script loads once the page is painted (with the route's own chunks).
 */
export const shellBootSchema = z.object({ boot: z.string(), entry: z.string(), scripts: z.array(z.string()) });
export type ShellBoot = z.infer<typeof shellBootSchema>;

/**
 * A signed-in page rendered by the server (web/src/prerender/shellPage.tsx, run by
 * server/src/http/signed-in-page.ts): what the server gives the render, and what it gets back.
 */
export interface ShellPageRequest {
  /** The path with its query, as the browser asked for it. */
  url: string;
  language: LanguageCode;
  /** A wide screen (the menu beside the page) or a phone (the menu in a drawer), as the server guesses. */
  wide: boolean;
  /** The Host of the request (a page may show its own address). */
  host: string;
  /** The browser's time zone as the app last said it (TIME_ZONE_COOKIE), else the server's. */
  timeZone: string | undefined;
  /** When the server stops waiting (Date.now()): a render still queued then is not started. */
  deadline: number;
  /** Answers a GET of the app as the API would, for this request's session. */
  send: (url: string, init: RequestInit) => Promise<Response>;
}
export interface ShellPage {
  markup: string;
  /** The answers the page was made with (React Query's dehydrated state), for the app to start from. */
  state: unknown;
}

const decodeAttribute = (value: string) =>
  value.replaceAll('&quot;', '"').replaceAll('&#x27;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

/**
 * React's style="..." attributes, which the CSP (style-src 'self') would refuse to apply, as
 * `data-<name>="n"`: `styles` numbers each distinct declaration list (decoded) on first use, across
 * calls when one is passed in.
 */
export function takeOutInlineStyles(
  html: string,
  name: string,
  styles = new Map<string, number>(),
): { markup: string; styles: Map<string, number> } {
  const markup = html.replace(/ style="([^"]*)"/g, (_match, attribute: string) => {
    const style = decodeAttribute(attribute);
    let id = styles.get(style);
    if (id === undefined) {
      id = styles.size;
      styles.set(style, id);
    }
    return ` data-${name}="${id}"`;
  });
  return { markup, styles };
}

/** The stylesheet that applies them again: each list as the rule of its number, `!important` as an inline style outranks the stylesheets. */
export function inlineStyleRules(name: string, styles: readonly string[]): string {
  return styles
    .map((style, id) => {
      const declarations = style
        .split(';')
        .filter((declaration) => declaration.trim() !== '')
        .map((declaration) => `${declaration.trim()} !important`);
      return `[data-${name}="${id}"]{${declarations.join(';')}}`;
    })
    .join('\n');
}
