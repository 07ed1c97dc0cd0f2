import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idParamsSchema,
  currentUserAnswerSchema,
  errorAnswerSchema,
  languageChangePayloadSchema,
  notificationViewedPayloadSchema,
  profileUpdatePayloadSchema,
  THUMBNAIL_SIZE,
  userAnswerSchema,
} from '@berth/contracts';
import { authedUser, requireUser, twoFactorSetupRequired } from '../../http/context.ts';
import { fieldError } from '../../http/errors.ts';
import { translate } from '../../i18n/messages.ts';
import { toPublicTenant } from '../tenants/service.ts';
import { presentUser } from './present.ts';
import { abilitiesFor } from '../policy/guard.ts';
import { AVATAR_MAX_BYTES, type AvatarService } from './avatar-service.ts';
import type { UserProfiles } from './profile.ts';
import type { ActorSource } from '../audit/service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

export function userRoutes(profiles: UserProfiles, avatars: AvatarService, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/user',
      {
        config: { rateLimit: RATE_LIMITS.read, beforeTwoFactorSetup: true },
        preHandler: requireUser,
        schema: {
          tags: ['users'],
          summary: "The session's user and tenant",
          response: { 200: currentUserAnswerSchema, 401: errorAnswerSchema },
        },
      },
      async (request) => {
        // Everything here was read with the session (sessions/queries.ts): no query of its own.
        const { user, impersonator, credit, avatar } = authedUser(request);
        return {
          data: {
            user: { ...presentUser(user, credit, avatar), impersonator, two_factor_setup_required: twoFactorSetupRequired(request) },
            tenant: toPublicTenant(request.tenant),
            abilities: abilitiesFor(user, request.tenant),
          },
        };
      },
    );

    api.patch(
      '/user/language',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['users'],
          summary: "Change the user's language; the answer is the user",
          body: languageChangePayloadSchema,
          response: { 200: userAnswerSchema, 401: errorAnswerSchema, 422: errorAnswerSchema },
        },
      },
      async (request) => {
        return {
          data: await profiles.changeLanguage(authedUser(request).user, request.body.language),
          message: translate(request.body.language, 'language.changed'),
        };
      },
    );

    api.patch(
      '/user/notification-viewed',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['users'],
          summary: 'Mark a notification (google2fa) as viewed; the answer is the user',
          body: notificationViewedPayloadSchema,
          response: { 200: userAnswerSchema, 401: errorAnswerSchema, 422: errorAnswerSchema },
        },
      },
      async (request) => {
        return { data: await profiles.markViewed(authedUser(request).user, request.body.notification) };
      },
    );

    api.patch(
      '/user/profile',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['users'],
          summary: 'Change the own name, phone and billing details (company, VAT ID, address) printed on new invoices',
          body: profileUpdatePayloadSchema,
          response: { 200: userAnswerSchema, 401: errorAnswerSchema, 422: errorAnswerSchema },
        },
      },
      async (request) => ({ data: await profiles.updateProfile(await actors.actor(request), request.body) }),
    );

    api.post(
      '/user/avatar',
      {
        config: { rateLimit: RATE_LIMITS.upload },
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
        return { data: await profiles.reload(user) };
      },
    );

    api.delete(
      '/user/avatar',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: { tags: ['users'], summary: 'Remove the profile picture', response: { 200: userAnswerSchema } },
      },
      async (request) => {
        const { user } = authedUser(request);
        await avatars.remove(user);
        return { data: await profiles.reload(user) };
      },
    );

    api.get(
      '/user/:id/avatar',
      {
        config: { rateLimit: RATE_LIMITS.read },
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
