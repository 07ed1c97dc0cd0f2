import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorAnswerSchema, jobIdParamsSchema, jobsAnswerSchema, jobsQuerySchema, messageAnswerSchema } from '@berth/contracts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';
import { translate } from '../../i18n/messages.ts';
import { requireAbility } from '../policy/guard.ts';
import type { JobsAdmin } from './service.ts';

/** Mounted under /api/system: the durable job queue for super admins (`jobs.manage`). */
export function jobsRoutes(jobs: JobsAdmin) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/jobs',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('jobs.manage'),
        schema: {
          tags: ['system'],
          summary: 'The newest jobs (mails, reminders, …) by state, with counts per state',
          querystring: jobsQuerySchema,
          response: { 200: jobsAnswerSchema, 401: errorAnswerSchema, 403: errorAnswerSchema },
        },
      },
      async (request) => jobs.list(request.query.state),
    );
    api.post(
      '/jobs/:id/retry',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('jobs.manage'),
        schema: {
          tags: ['system'],
          summary: 'Runs a failed job again now',
          params: jobIdParamsSchema,
          response: {
            200: messageAnswerSchema,
            401: errorAnswerSchema,
            403: errorAnswerSchema,
            404: errorAnswerSchema,
            409: errorAnswerSchema,
          },
        },
      },
      async (request) => {
        await jobs.retry(request.params.id);
        return { message: translate(request.lang, 'jobs.retried') };
      },
    );
  };
}
