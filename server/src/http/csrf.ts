import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const hostOf = (origin: string): string | undefined => {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
};

/**
 * Fetch-Metadata CSRF protection (the scheme of Go's CrossOriginProtection): browsers say where a
 * request comes from; a state-changing request from another site is refused. Clients that send
 * neither header (curl, the CLI, tests) are not browsers and cannot carry a victim's cookie.
 */
export function isCrossSiteRequest(request: FastifyRequest, trustedHosts: readonly string[]): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'same-origin' || fetchSite === 'none') return false;
  const origin = request.headers.origin;
  if (!origin) return fetchSite !== undefined; // same-site / cross-site without an Origin: refuse
  const originHost = hostOf(origin);
  if (!originHost) return true;
  const requestHost = (request.headers.host ?? '').toLowerCase();
  return originHost !== requestHost && !trustedHosts.includes(originHost.replace(/:\d+$/, ''));
}

export function registerCsrfProtection(app: FastifyInstance): void {
  // onRequest, after the tenant is known: a forged request is refused before its body is even read.
  app.addHook('onRequest', async (request) => {
    const trusted = request.tenant?.hosts ?? [];
    if (isCrossSiteRequest(request, trusted)) throw new HttpError(403, 'http.forbidden_cross_site');
  });
}
