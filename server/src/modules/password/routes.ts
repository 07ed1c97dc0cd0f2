import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorAnswerSchema,
  messageAnswerSchema,
  messageSessionAnswerSchema,
  passwordChangePayloadSchema,
  passwordForgotPayloadSchema,
  passwordResetPayloadSchema,
} from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { translate } from '../../i18n/messages.ts';
import { issueSession } from '../auth/issue-session.ts';
import type { SessionService } from '../sessions/service.ts';
import type { PasswordService } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

const errors = { 401: errorAnswerSchema, 422: errorAnswerSchema, 429: errorAnswerSchema };

export function passwordRoutes(passwords: PasswordService, sessions: SessionService) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.post(
      '/password/forgot',
      {
        config: { rateLimit: RATE_LIMITS.auth },
        schema: {
          tags: ['auth'],
          summary: 'E-mail a password reset link (same answer whether the account exists or not)',
          body: passwordForgotPayloadSchema,
          response: { 200: messageAnswerSchema, ...errors },
        },
      },
      async (request) => {
        await passwords.forgot(request.body.email, { tenant: request.tenant, ip: request.ip });
        return { message: translate(request.lang, 'password.reset_sent') };
      },
    );

    api.post(
      '/password/reset/:uniq_id/:token',
      {
        config: { signsIn: true, rateLimit: RATE_LIMITS.auth },
        schema: {
          tags: ['auth'],
          summary: 'Set a new password from a reset link; signs the user in (or asks for the second factor)',
          params: z.object({ uniq_id: z.string().max(64), token: z.string().max(128) }),
          body: passwordResetPayloadSchema,
          response: { 200: messageSessionAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        reply.header('referrer-policy', 'no-referrer');
        const { password, password_confirmation } = request.body;
        const user = await passwords.reset(request.params.uniq_id, request.params.token, password, password_confirmation, {
          tenant: request.tenant,
          ip: request.ip,
        });
        const data = await issueSession(sessions, request, reply, user, { remember: false, twoFactorPending: user.google2fa_enabled });
        return { data, message: translate(request.lang, 'password.reset_done') };
      },
    );

    api.patch(
      '/account/password',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['account'],
          summary: 'Change the own password (needs the current one); other sessions end',
          body: passwordChangePayloadSchema,
          response: { 200: messageAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const { user, session } = authedUser(request);
        await passwords.change(user, request.body, { tenant: request.tenant, ip: request.ip, sessionIdHash: session.idHash });
        return { message: translate(request.lang, 'password.changed') };
      },
    );
  };
}
