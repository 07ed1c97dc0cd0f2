import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorAnswerSchema, idSchema, outboxAnswerSchema } from '@berth/contracts';
import { authedUser } from '../../http/context.ts';
import { requireAbility } from '../policy/guard.ts';
import { HttpError } from '../../http/errors.ts';
import type { Mailer } from './mailer.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

/** Mounted under /api/system: GET /api/system/outbox. */
export function outboxRoutes(mailer: Mailer) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/outbox',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('outbox.view'),
        schema: {
          tags: ['system'],
          summary: 'Mails kept instead of sent (no SMTP_URL), newest first; super admins only',
          querystring: z.object({ tenant_id: idSchema.optional() }),
          response: { 200: outboxAnswerSchema, 401: errorAnswerSchema, 403: errorAnswerSchema },
        },
      },
      async (request) => {
        const { user } = authedUser(request);
        // The outbox holds live reset links and login codes of every tenant: super admins only.
        if (user.role !== 'super_admin') throw new HttpError(403, 'http.forbidden');
        return { data: await mailer.outbox({ tenantId: request.query.tenant_id }) };
      },
    );
  };
}
