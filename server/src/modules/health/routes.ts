import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthAnswerSchema } from '@berth/contracts';
import { pingDatabase, type Db } from '../../db/connection.ts';

export function healthRoutes(db: Db) {
  return async (app: FastifyInstance): Promise<void> => {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/health',
      {
        schema: {
          tags: ['system'],
          summary: 'Liveness and database check',
          response: { 200: healthAnswerSchema, 503: healthAnswerSchema },
        },
      },
      async (_request, reply) => {
        const ok = await pingDatabase(db);
        reply.header('cache-control', 'no-store');
        if (!ok) return reply.code(503).send({ status: 'error', database: 'error' });
        return { status: 'ok' as const, database: 'ok' as const };
      },
    );
  };
}
