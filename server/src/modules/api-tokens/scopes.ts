import type { ApiTokenArea, ApiTokenScope } from '@berth/contracts';

/**
 * The API areas a token may reach, by path (under /api): the most specific prefix wins. A path
 * not listed here answers no token at all (403): tokens, passwords, two-factor, sessions and the
 * operators' pages stay with signed-in people (docs/decisions/0009-api-tokens.md).
 */
const AREAS: [prefix: string, area: ApiTokenArea][] = [
  ['/host/domain/:id/dns', 'dns'],
  ['/host/domain/:id/users', 'mail'],
  ['/host/domain/:id/aliases', 'mail'],
  ['/host/domain', 'domains'],
  ['/host/services', 'domains'],
  ['/shop', 'shop'],
  ['/cart', 'shop'],
  ['/account/invoices', 'shop'],
  ['/system/customers', 'customers'],
];

/**
 * Inside an area, yet never a token's: another person's account security (a login as them, their
 * second factor, their lock) is for a signed-in admin; a leaked token must not take an account over.
 */
const NEVER_TOKEN = new Set([
  'POST /system/customers/:id/impersonate',
  'POST /system/customers/:id/reset-2fa',
  'POST /system/customers/:id/lock',
  'POST /system/customers/:id/unlock',
]);

/** Answered to every valid token: who it acts as. */
const ANY_TOKEN = new Set(['GET /user']);

const covers = (prefix: string, path: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * The scope a token needs for a route (`dns:write`), 'any' when every token may call it, or null
 * when no token may. `url` is the route's pattern as registered (`/api/host/domain/:id/dns`).
 */
export function tokenScopeOf(url: string, method: string): ApiTokenScope | 'any' | null {
  const path = url.replace(/^\/api(?=\/)/, '');
  if (ANY_TOKEN.has(`${method} ${path}`)) return 'any';
  if (NEVER_TOKEN.has(`${method} ${path}`)) return null;
  const match = AREAS.filter(([prefix]) => covers(prefix, path)).sort((a, b) => b[0].length - a[0].length)[0];
  if (!match) return null;
  return `${match[1]}:${method === 'GET' || method === 'HEAD' ? 'read' : 'write'}`;
}
