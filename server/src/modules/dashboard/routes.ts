import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { dashboardAnswerSchema, errorAnswerSchema } from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import type { DashboardService } from './service.ts';
import { userMay } from '../policy/guard.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

export function dashboardRoutes(dashboard: DashboardService) {
  return async (app: FastifyInstance): Promise<void> => {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/dashboard',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags: ['dashboard'],
          summary: 'Domains, those expiring within 30 days, domain users, cart, credit, unread notifications; tenant totals for admins',
          response: { 200: dashboardAnswerSchema, 401: errorAnswerSchema },
        },
      },
      async (request) => {
        const { user, credit } = authedUser(request);
        return { data: await dashboard.for(user, userMay(user, request.tenant, 'credit.own') ? credit : null) };
      },
    );
  };
}
