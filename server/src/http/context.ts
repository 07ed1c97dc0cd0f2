import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isLanguage, languageFromHeader } from '../i18n/messages.ts';
import type { ResolvedTenant, TenantResolver } from '../modules/tenants/service.ts';
import type { ActiveSession, SessionService } from '../modules/sessions/service.ts';
import { readSessionCookie } from '../modules/sessions/cookie.ts';
import { HttpError } from './errors.ts';
import type {} from './request.ts';

/**
 * Every /api request learns its tenant (from the host name), its session and its language
 * before any route runs, so routes never look these up themselves.
 */
export function registerRequestContext(app: FastifyInstance, deps: { tenants: TenantResolver; sessions: SessionService }): void {
  app.decorateRequest('lang', 'en');
  app.decorateRequest('tenant', undefined as unknown as ResolvedTenant);
  app.decorateRequest('auth', undefined);

  app.addHook('onRequest', async (request) => {
    request.lang = languageFromHeader(request.headers['accept-language']);
    if (!request.url.startsWith('/api/')) return;
    request.tenant = await deps.tenants.forHost(request.headers.host);
    const token = readSessionCookie(request);
    if (!token) return;
    const active = await deps.sessions.resolveOn(token, request.tenant.id);
    if (!active) return;
    request.auth = active;
    if (!active.session.twoFactorPending && isLanguage(active.user.language)) request.lang = active.user.language;
  });
}

/** preHandler for routes that need a fully signed-in user (a pending second factor is not enough). */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.auth || request.auth.session.twoFactorPending) throw new HttpError(401, 'auth.unauthenticated');
}

export const authedUser = (request: FastifyRequest): ActiveSession => {
  if (!request.auth || request.auth.session.twoFactorPending) throw new HttpError(401, 'auth.unauthenticated');
  return request.auth;
};
