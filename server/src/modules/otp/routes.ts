import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorAnswerSchema,
  messageSessionAnswerSchema,
  otpLoginPayloadSchema,
  otpRequestAnswerSchema,
  otpRequestPayloadSchema,
} from '@berth/contracts';
import { translate } from '../../i18n/messages.ts';
import { issueSession } from '../auth/issue-session.ts';
import type { SessionService } from '../sessions/service.ts';
import type { OtpService } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

const errors = { 404: errorAnswerSchema, 422: errorAnswerSchema, 429: errorAnswerSchema };

export function otpRoutes(otp: OtpService, sessions: SessionService) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.post(
      '/password/otp',
      {
        config: { rateLimit: RATE_LIMITS.auth },
        schema: {
          tags: ['auth'],
          summary: 'E-mail a 6-character one-time login code; answers notice and data.uniq_id',
          body: otpRequestPayloadSchema,
          response: { 200: otpRequestAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const uniqId = await otp.request(request.body.email, { tenant: request.tenant, ip: request.ip });
        return { notice: translate(request.lang, 'otp.sent'), data: { uniq_id: uniqId } };
      },
    );

    api.post(
      '/password/otplogin',
      {
        config: { signsIn: true, rateLimit: RATE_LIMITS.auth },
        schema: {
          tags: ['auth'],
          summary: 'Log in with the e-mailed code; a 2FA user still passes the second factor',
          body: otpLoginPayloadSchema,
          response: { 200: messageSessionAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const user = await otp.login(request.body.uniq_id, request.body.otp, { tenant: request.tenant, ip: request.ip });
        return { data: await issueSession(sessions, request, reply, user, { remember: false, twoFactorPending: user.google2fa_enabled }) };
      },
    );
  };
}
