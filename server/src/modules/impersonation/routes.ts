import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorAnswerSchema, idParamsSchema, impersonationAnswerSchema, impersonationStatusAnswerSchema } from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { translate } from '../../i18n/messages.ts';
import { assertAdmin } from '../tenants/scope.ts';
import type { ImpersonationService } from './service.ts';

export function impersonationRoutes(impersonation: ImpersonationService) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.post(
      '/system/customers/:id/impersonate',
      {
        preHandler: requireUser,
        schema: {
          tags: ['customers'],
          summary: "Log in as a customer (host admins: their tenant's; super admins: any); the answer is the customer's session",
          params: idParamsSchema,
          response: {
            200: impersonationAnswerSchema,
            401: errorAnswerSchema,
            403: errorAnswerSchema,
            404: errorAnswerSchema,
            422: errorAnswerSchema,
          },
        },
      },
      async (request, reply) => {
        assertAdmin(authedUser(request).user);
        const data = await impersonation.start(request, reply, request.params.id);
        return { data, message: translate(request.lang, 'impersonation.started') };
      },
    );

    api.get(
      '/impersonation',
      {
        preHandler: requireUser,
        schema: {
          tags: ['customers'],
          summary: 'Whether this session is an admin logged in as its user (the banner), and which admin',
          response: { 200: impersonationStatusAnswerSchema, 401: errorAnswerSchema },
        },
      },
      async (request) => ({ data: { impersonator: await impersonation.impersonatorOf(authedUser(request).session.idHash) } }),
    );

    api.post(
      '/impersonation/stop',
      {
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
