import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthAnswerSchema } from '@berth/contracts';
import { pingDatabase, type Db } from '../../db/connection.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';
import type { StorageWatch } from '../../db/storage.ts';

export function healthRoutes(db: Db, redisStatus: () => Promise<'ok' | 'error' | 'off'>, storage: StorageWatch) {
  return async (app: FastifyInstance): Promise<void> => {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/health',
      {
        config: { rateLimit: RATE_LIMITS.public },
        schema: {
          tags: ['system'],
          summary: 'Which dependency is up: 200 when the database answers and takes writes (Redis only carries realtime), else 503',
          response: { 200: healthAnswerSchema, 503: healthAnswerSchema },
        },
      },
      async (_request, reply) => {
        const [database, redis] = await Promise.all([pingDatabase(db), redisStatus()]);
        reply.header('cache-control', 'no-store');
        if (!database) return reply.code(503).header('retry-after', '5').send({ status: 'error', database: 'error', redis, storage: 'ok' });
        const disk = await storage.status();
        if (disk === 'error')
          return reply.code(503).header('retry-after', '30').send({ status: 'error', database: 'ok', redis, storage: disk });
        return { status: 'ok' as const, database: 'ok' as const, redis, storage: disk };
      },
    );
  };
}
