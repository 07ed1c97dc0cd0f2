import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorAnswerSchema, loginPayloadSchema, messageAnswerSchema, sessionAnswerSchema } from '@berth/contracts';
import { translate } from '../../i18n/messages.ts';
import { clearSessionCookie, readSessionCookie, writeSessionCookie } from '../sessions/cookie.ts';
import { toPublicTenant } from '../tenants/service.ts';
import { presentUser } from '../users/present.ts';
import type { AuthService } from './service.ts';

export function authRoutes(auth: AuthService) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.post(
      '/login',
      {
        schema: {
          tags: ['auth'],
          summary: 'Log in with e-mail (or uid) and password; rotates the session id',
          body: loginPayloadSchema,
          response: { 200: sessionAnswerSchema, 422: errorAnswerSchema, 429: errorAnswerSchema },
        },
      },
      async (request, reply) => {
        const result = await auth.login({
          ...request.body,
          tenantId: request.tenant.id,
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
          previousToken: readSessionCookie(request),
        });
        writeSessionCookie(request, reply, result.token, request.body.remember, result.expiresAt);
        if (result.twoFactorPending) return { data: { status: 'two_factor_required' as const } };
        return {
          data: { status: 'authenticated' as const, user: presentUser(result.user), tenant: toPublicTenant(request.tenant) },
        };
      },
    );

    api.post(
      '/logout',
      {
        schema: {
          tags: ['auth'],
          summary: 'End the current session',
          response: { 200: messageAnswerSchema },
        },
      },
      async (request, reply) => {
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
