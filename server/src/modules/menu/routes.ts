import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { menuAnswerSchema } from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { navigationFor } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

export function menuRoutes() {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/menu',
      {
        config: { rateLimit: RATE_LIMITS.read, beforeTwoFactorSetup: true },
        preHandler: requireUser,
        schema: { tags: ['shell'], summary: "The navigation tree of the user's role", response: { 200: menuAnswerSchema } },
      },
      async (request) => ({ data: navigationFor(authedUser(request).user, request.tenant) }),
    );
  };
}
