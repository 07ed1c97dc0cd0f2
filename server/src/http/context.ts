import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '@berth/contracts';
import { isLanguage, languageFromHeader } from '../i18n/messages.ts';
import { secondFactorMissing } from '../modules/twofactor/policy.ts';
import type { ApiTokenService } from '../modules/api-tokens/service.ts';
import { tokenScopeOf } from '../modules/api-tokens/scopes.ts';
import type { ResolvedTenant, TenantResolver } from '../modules/tenants/service.ts';
import type { ActiveSession, SessionService } from '../modules/sessions/service.ts';
import { readSessionCookie } from '../modules/sessions/cookie.ts';
import { HttpError } from './errors.ts';
import type {} from './request.ts';

/**
 * Every /api request learns its tenant (from the host name), its session and its language
 * before any route runs, so routes never look these up themselves.
 */
export function registerRequestContext(
  app: FastifyInstance,
  deps: { tenants: TenantResolver; sessions: SessionService; tokens: Pick<ApiTokenService, 'authenticate'> },
): void {
  app.decorateRequest('lang', 'en');
  app.decorateRequest('tenant', undefined as unknown as ResolvedTenant);
  app.decorateRequest('auth', undefined);

  app.addHook('onRequest', async (request) => {
    request.lang = languageFromHeader(request.headers['accept-language']);
    if (!request.url.startsWith('/api/')) return;
    request.tenant = await deps.tenants.forHost(request.headers.host);
    // An API token, when one is sent, is the only credential looked at: a cookie beside it is ignored.
    const bearer = bearerOf(request);
    if (bearer) {
      const active = await deps.tokens.authenticate(bearer, request.tenant.id, request.ip);
      if (!active) throw new HttpError(401, 'auth.token_invalid', { headers: { 'www-authenticate': 'Bearer' } });
      // A valid token on a route that signs in or out: refused before anything else runs.
      if (request.routeOptions.config.signsIn) refuseToken(request);
      request.auth = active;
      if (isLanguage(active.user.language)) request.lang = active.user.language;
      return;
    }
    const token = readSessionCookie(request);
    if (!token) return;
    const active = await deps.sessions.resolveOn(token, request.tenant.id);
    if (!active) return;
    request.auth = active;
    if (!active.session.twoFactorPending && isLanguage(active.user.language)) request.lang = active.user.language;
  });

  // A request that may have written answers only after this instance forgot the sessions it keeps:
  // its own next request sees the change at once (other instances hear of it from the database,
  // modules/sessions/cache.ts).
  app.addHook('onSend', async (request) => {
    if (!READ_ONLY_METHODS.has(request.method)) deps.sessions.cache?.clear();
  });
}

/** The API token a request carries (`Authorization: Bearer …`), valid or not. */
const bearerOf = (request: FastifyRequest): string | undefined => /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];

/**
 * Sessions are made, swapped and ended by a person in a browser, never by an API token: every step
 * that issues, rotates or ends a cookie session calls this first (docs/decisions/0009-api-tokens.md),
 * so a leaked token cannot become a login of its owner or of anyone the owner administers.
 */
export function refuseToken(request: FastifyRequest): void {
  if (bearerOf(request) !== undefined) throw new HttpError(403, 'auth.token_not_allowed');
}

const READ_ONLY_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether this session's user must set up a second factor first (modules/twofactor/policy.ts).
 * A support session ("log in as") is the admin's, not the customer's, so it is not held back.
 */
export function twoFactorSetupRequired(request: FastifyRequest): boolean {
  const auth = request.auth;
  return auth !== undefined && !auth.impersonator && secondFactorMissing(auth.user, request.tenant);
}

/**
 * preHandler for routes that need a fully signed-in user (a pending second factor is not enough).
 * Until a required second factor is set up, only routes marked `config.beforeTwoFactorSetup`
 * (the user, logout and /account/2fa) answer; the others 403 with a code the web acts on.
 */
export async function requireUser(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.auth || request.auth.session.twoFactorPending) throw new HttpError(401, 'auth.unauthenticated');
  if (request.auth.token) {
    const needed = tokenScopeOf(request.routeOptions.url ?? '', request.method);
    if (needed === null) throw new HttpError(403, 'auth.token_not_allowed');
    if (needed !== 'any' && !request.auth.token.scopes.includes(needed))
      throw new HttpError(403, 'auth.token_scope', { params: { scope: needed } });
  }
  if (!request.routeOptions.config.beforeTwoFactorSetup && twoFactorSetupRequired(request)) {
    throw new HttpError(403, 'auth.two_factor_setup_required', { code: ERROR_CODES.twoFactorSetupRequired });
  }
}

export const authedUser = (request: FastifyRequest): ActiveSession => {
  if (!request.auth || request.auth.session.twoFactorPending) throw new HttpError(401, 'auth.unauthenticated');
  return request.auth;
};

/** The session waiting for its second factor; anything else is told to log in again. */
export function pendingLogin(request: FastifyRequest): ActiveSession {
  if (!request.auth?.session.twoFactorPending) throw new HttpError(401, 'twofactor.pending_expired');
  return request.auth;
}
