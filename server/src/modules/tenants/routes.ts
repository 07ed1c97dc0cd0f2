import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { tenantAnswerSchema } from '@berth/contracts';
import { toPublicTenant } from './service.ts';

export async function tenantRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/tenant',
    {
      schema: {
        tags: ['tenants'],
        summary: "The tenant of the request's host name (public: the login screen needs it)",
        response: { 200: tenantAnswerSchema },
      },
    },
    async (request) => ({ data: toPublicTenant(request.tenant) }),
  );
}
