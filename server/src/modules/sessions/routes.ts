import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorAnswerSchema, messageAnswerSchema, sessionListAnswerSchema } from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { HttpError } from '../../http/errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { AuditService } from '../audit/service.ts';
import { describeDevice } from './device.ts';
import type { SessionService } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

export function sessionRoutes(sessions: SessionService, audit: AuditService) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/account/sessions',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: { tags: ['account'], summary: "The user's sessions (device, IP, last seen)", response: { 200: sessionListAnswerSchema } },
      },
      async (request) => {
        const { user, session } = authedUser(request);
        const rows = await sessions.list(user.id);
        return {
          data: rows.map((row) => ({
            id: row.public_id,
            device: describeDevice(row.user_agent),
            ip: row.ip,
            created_at: new Date(row.created_at).toISOString(),
            last_seen_at: new Date(row.last_seen_at).toISOString(),
            current: row.id_hash === session.idHash,
          })),
        };
      },
    );

    api.delete(
      '/account/sessions/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['account'],
          summary: 'Sign one of the own sessions out',
          params: z.object({ id: z.string().max(64) }),
          response: { 200: messageAnswerSchema, 404: errorAnswerSchema },
        },
      },
      async (request) => {
        const { user } = authedUser(request);
        if (!(await sessions.revoke(user.id, request.params.id))) throw new HttpError(404, 'http.not_found');
        await audit.record({ action: 'user.session_revoked', tenantId: request.tenant.id, userId: user.id, ip: request.ip });
        return { message: translate(request.lang, 'sessions.revoked') };
      },
    );
  };
}
