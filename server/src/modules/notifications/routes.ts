import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorAnswerSchema,
  notificationListAnswerSchema,
  notificationListQuerySchema,
  notificationParamsSchema,
  notificationReadAnswerSchema,
  notificationsReadAllAnswerSchema,
} from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import type { NotificationService } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

export function notificationRoutes(notifications: NotificationService) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['notifications'];

    api.get(
      '/notifications',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags,
          summary: "The caller's own notifications, newest first, in keyset pages; with the number unread",
          querystring: notificationListQuerySchema,
          response: { 200: notificationListAnswerSchema, 401: errorAnswerSchema, 422: errorAnswerSchema },
        },
      },
      async (request) => notifications.list(authedUser(request).user.id, request.query),
    );

    api.post(
      '/notifications/read-all',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: "Mark all of the caller's notifications read",
          response: { 200: notificationsReadAllAnswerSchema, 401: errorAnswerSchema },
        },
      },
      async (request) => notifications.markAllRead(authedUser(request).user.id),
    );

    api.post(
      '/notifications/:id/read',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: "Mark one of the caller's notifications read (another user's is not found)",
          params: notificationParamsSchema,
          response: { 200: notificationReadAnswerSchema, 401: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema },
        },
      },
      async (request) => notifications.markRead(authedUser(request).user.id, request.params.id),
    );
  };
}
