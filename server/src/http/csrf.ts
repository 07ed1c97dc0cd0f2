import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Where a request was sent: its scheme and its Host header (host and port), as a browser would write its origin. */
export interface RequestOrigin {
  scheme: string;
  host: string | undefined;
}

const defaultPort = (scheme: string) => (scheme === 'https' ? '443' : scheme === 'http' ? '80' : '');

/**
 * Whether a browser's `Origin` is the origin the request was made to, or one of the tenant's own
 * hosts on that same scheme and port. The whole origin counts (scheme, host and port): another
 * port of the same host is another origin, and so is `http` for an `https` panel or the opaque
 * `null` of a sandboxed frame or a redirect.
 */
export function originAllowed(origin: string, own: RequestOrigin, trustedHosts: readonly string[]): boolean {
  let parsed: URL;
  let target: URL;
  try {
    parsed = new URL(origin);
    target = new URL(`${own.scheme}://${own.host ?? ''}`);
  } catch {
    return false;
  }
  if (parsed.origin === 'null' || parsed.protocol !== target.protocol) return false;
  const scheme = target.protocol.slice(0, -1);
  if ((parsed.port || defaultPort(scheme)) !== (target.port || defaultPort(scheme))) return false;
  const host = parsed.hostname.toLowerCase();
  return host === target.hostname.toLowerCase() || trustedHosts.includes(host);
}

/**
 * Fetch-Metadata CSRF protection (the scheme of Go's CrossOriginProtection): browsers say where a
 * request comes from; a state-changing request from another origin is refused. Clients that send
 * neither header (curl, the CLI, tests) are not browsers and cannot carry a victim's cookie.
 */
export function isCrossSiteRequest(request: FastifyRequest, trustedHosts: readonly string[]): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'same-origin' || fetchSite === 'none') return false;
  const origin = request.headers.origin;
  if (!origin) return fetchSite !== undefined; // same-site / cross-site without an Origin: refuse
  return !originAllowed(origin, { scheme: request.protocol, host: request.headers.host }, trustedHosts);
}

export function registerCsrfProtection(app: FastifyInstance): void {
  // onRequest, after the tenant is known: a forged request is refused before its body is even read.
  app.addHook('onRequest', async (request) => {
    const trusted = request.tenant?.hosts ?? [];
    if (isCrossSiteRequest(request, trusted)) throw new HttpError(403, 'http.forbidden_cross_site');
  });
}
