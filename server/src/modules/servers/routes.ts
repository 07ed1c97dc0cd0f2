import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorAnswerSchema, webServersAnswerSchema } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';
import { requireAbility } from '../policy/guard.ts';
import { serversOverview } from './service.ts';

/** Mounted under /api/system: GET /api/system/servers (super admins, `servers.manage`). */
export function serversRoutes(db: Db) {
  return async (app: FastifyInstance): Promise<void> => {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/servers',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('servers.manage'),
        schema: {
          tags: ['system'],
          summary: 'The servers sites are placed on: sites per server, PHP versions its agent reported',
          response: { 200: webServersAnswerSchema, 401: errorAnswerSchema, 403: errorAnswerSchema },
        },
      },
      async () => ({ data: await serversOverview(db) }),
    );
  };
}
