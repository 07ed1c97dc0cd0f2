import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorAnswerSchema, impersonationAnswerSchema, impersonationStatusAnswerSchema } from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { translate } from '../../i18n/messages.ts';
import type { ImpersonationService } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

export function impersonationRoutes(impersonation: ImpersonationService) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/impersonation',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags: ['customers'],
          summary: 'Whether this session is an admin logged in as its user (the banner), and which admin',
          response: { 200: impersonationStatusAnswerSchema, 401: errorAnswerSchema },
        },
      },
      async (request) => ({ data: { impersonator: authedUser(request).impersonator } }),
    );

    api.post(
      '/impersonation/stop',
      {
        config: { signsIn: true, rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['customers'],
          summary: 'End "log in as customer": back to the admin\'s own session',
          response: { 200: impersonationAnswerSchema, 401: errorAnswerSchema, 409: errorAnswerSchema },
        },
      },
      async (request, reply) => {
        const data = await impersonation.stop(request, reply);
        return { data, message: translate(request.lang, 'impersonation.stopped') };
      },
    );
  };
}
