import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { languagesAnswerSchema } from '@berth/contracts';
import { PANEL_LANGUAGES } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

export async function languageRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/languages',
    {
      config: { rateLimit: RATE_LIMITS.public },
      schema: { tags: ['shell'], summary: 'The languages of the panel', response: { 200: languagesAnswerSchema } },
    },
    async () => ({ data: [...PANEL_LANGUAGES] }),
  );
}
