import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorAnswerSchema, loginPayloadSchema, messageAnswerSchema, sessionAnswerSchema } from '@berth/contracts';
import { refuseToken } from '../../http/context.ts';
import { translate } from '../../i18n/messages.ts';
import { clearSessionCookie, readSessionCookie } from '../sessions/cookie.ts';
import type { RealtimeHub } from '../realtime/hub.ts';
import type { SessionService } from '../sessions/service.ts';
import { issueSession } from './issue-session.ts';
import type { AuthService } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

export function authRoutes(auth: AuthService, sessions: SessionService, realtime: RealtimeHub) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.post(
      '/login',
      {
        config: { signsIn: true, rateLimit: RATE_LIMITS.auth },
        // The answer is a user (under COMPRESS_THRESHOLD_BYTES, http/web-app.ts) and a sign-in is
        // never sent compressed: without @fastify/compress's three hooks, as each login is CPU the
        // password check needs (bench: logins against raw argon2id verifies).
        compress: false,
        decompress: false,
        schema: {
          tags: ['auth'],
          summary: 'Log in with e-mail (or uid) and password; rotates the session id',
          body: loginPayloadSchema,
          response: { 200: sessionAnswerSchema, 422: errorAnswerSchema, 429: errorAnswerSchema },
        },
      },
      async (request, reply) => {
        const { email, password, remember } = request.body;
        const { user, signIn } = await auth.login({ email, password, tenantId: request.tenant.id, ip: request.ip });
        return {
          data: await issueSession(sessions, request, reply, user, { remember, twoFactorPending: user.google2fa_enabled, write: signIn }),
        };
      },
    );

    api.post(
      '/logout',
      {
        config: { signsIn: true, rateLimit: RATE_LIMITS.write },
        schema: {
          tags: ['auth'],
          summary: "End the current session (a browser's; API tokens are revoked instead)",
          response: { 200: messageAnswerSchema, 403: errorAnswerSchema },
        },
      },
      async (request, reply) => {
        // A token ends nothing: not itself (revoke it), not a cookie's session sent beside it.
        refuseToken(request);
        if (request.auth) realtime.endSession(request.auth.session.idHash);
        await auth.logout(readSessionCookie(request), {
          tenantId: request.tenant.id,
          userId: request.auth?.user.id ?? null,
          ip: request.ip,
        });
        clearSessionCookie(request, reply);
        return { message: translate(request.lang, 'auth.logged_out') };
      },
    );
  };
}
