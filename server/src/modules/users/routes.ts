import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamsSchema,
  currentUserAnswerSchema,
  errorAnswerSchema,
  languageChangePayloadSchema,
  notificationViewedPayloadSchema,
  THUMBNAIL_SIZE,
  userAnswerSchema,
} from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { authedUser, requireUser } from '../../http/context.ts';
import { fieldError } from '../../http/errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { Clock } from '../../lib/clock.ts';
import { toPublicTenant } from '../tenants/service.ts';
import type { ImpersonationService } from '../impersonation/service.ts';
import { AVATAR_MAX_BYTES, type AvatarService } from './avatar-service.ts';
import { balanceOf } from '../credit/queries.ts';
import { presentUser } from './present.ts';
import { findUserById, markNotificationViewed, updateUserLanguage } from './queries.ts';

export function userRoutes(db: Db, clock: Clock, avatars: AvatarService, impersonation: ImpersonationService) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/user',
      {
        preHandler: requireUser,
        schema: {
          tags: ['users'],
          summary: "The session's user and tenant",
          response: { 200: currentUserAnswerSchema, 401: errorAnswerSchema },
        },
      },
      async (request) => {
        const { user, session } = authedUser(request);
        const [impersonator, credit] = await Promise.all([impersonation.impersonatorOf(session.idHash), balanceOf(db, user.id)]);
        return { data: { user: { ...presentUser(user, credit), impersonator }, tenant: toPublicTenant(request.tenant) } };
      },
    );

    api.patch(
      '/user/language',
      {
        preHandler: requireUser,
        schema: {
          tags: ['users'],
          summary: "Change the user's language; the answer is the user",
          body: languageChangePayloadSchema,
          response: { 200: userAnswerSchema, 401: errorAnswerSchema, 422: errorAnswerSchema },
        },
      },
      async (request) => {
        const updated = await updateUserLanguage(db, authedUser(request).user.id, request.body.language, clock.now());
        return {
          data: presentUser(updated, await balanceOf(db, updated.id)),
          message: translate(request.body.language, 'language.changed'),
        };
      },
    );

    api.patch(
      '/user/notification-viewed',
      {
        preHandler: requireUser,
        schema: {
          tags: ['users'],
          summary: 'Mark a notification (google2fa) as viewed; the answer is the user',
          body: notificationViewedPayloadSchema,
          response: { 200: userAnswerSchema, 401: errorAnswerSchema, 422: errorAnswerSchema },
        },
      },
      async (request) => {
        const updated = await markNotificationViewed(db, authedUser(request).user.id, request.body.notification);
        return { data: presentUser(updated, await balanceOf(db, updated.id)) };
      },
    );

    api.post(
      '/user/avatar',
      {
        preHandler: requireUser,
        schema: {
          tags: ['users'],
          summary: 'Upload a profile picture (multipart field "image"; JPEG, PNG, WebP or GIF up to 5 MB)',
          response: { 200: userAnswerSchema, 401: errorAnswerSchema, 422: errorAnswerSchema },
        },
      },
      async (request) => {
        const { user } = authedUser(request);
        const file = request.isMultipart() ? await request.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } }) : undefined;
        if (!file) throw fieldError('image', 'validation.required');
        const buffer = await file.toBuffer().catch(() => {
          throw fieldError('image', 'avatar.invalid');
        });
        await avatars.upload(user, buffer);
        const fresh = await findUserById(db, user.id);
        return { data: presentUser(fresh ?? user, await balanceOf(db, user.id)) };
      },
    );

    api.delete(
      '/user/avatar',
      { preHandler: requireUser, schema: { tags: ['users'], summary: 'Remove the profile picture', response: { 200: userAnswerSchema } } },
      async (request) => {
        const { user } = authedUser(request);
        await avatars.remove(user);
        return { data: presentUser((await findUserById(db, user.id)) ?? user, await balanceOf(db, user.id)) };
      },
    );

    api.get(
      '/user/:id/avatar',
      {
        preHandler: requireUser,
        schema: {
          tags: ['users'],
          summary: "A user's avatar (initials until an image is uploaded)",
          params: idParamsSchema,
          querystring: z.object({ size: z.coerce.number().int().min(16).max(512).default(THUMBNAIL_SIZE), v: z.string().optional() }),
        },
      },
      async (request, reply) => {
        const image = await avatars.render(authedUser(request).user, request.params.id, request.query.size);
        // The URL carries a version (v=updated_at), so a long private cache is safe.
        reply.header('cache-control', 'private, max-age=86400').type(image.type);
        return image.body;
      },
    );
  };
}
