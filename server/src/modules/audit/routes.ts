import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditListAnswerSchema, auditListQuerySchema, errorAnswerSchema } from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import type { AuditLogReader } from './log.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

export function auditRoutes(reader: AuditLogReader) {
  return async (app: FastifyInstance): Promise<void> => {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/system/audit',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags: ['system'],
          summary: 'Who did what to which object, when and from where; newest first. Host admins see their tenant, super admins all',
          querystring: auditListQuerySchema,
          response: {
            200: auditListAnswerSchema,
            401: errorAnswerSchema,
            403: errorAnswerSchema,
            404: errorAnswerSchema,
            422: errorAnswerSchema,
          },
        },
      },
      async (request) => reader.list(authedUser(request).user, request.query),
    );
  };
}
