import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUserAnswerSchema, errorAnswerSchema, THUMBNAIL_SIZE } from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { HttpError } from '../../http/errors.ts';
import { toPublicTenant } from '../tenants/service.ts';
import { initialsAvatarSvg } from './avatar.ts';
import { presentUser } from './present.ts';

export async function userRoutes(app: FastifyInstance): Promise<void> {
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
      const { user } = authedUser(request);
      return { data: { user: presentUser(user), tenant: toPublicTenant(request.tenant) } };
    },
  );

  api.get(
    '/user/:id/avatar',
    {
      preHandler: requireUser,
      schema: {
        tags: ['users'],
        summary: "A user's avatar (initials until an image is uploaded)",
        params: z.object({ id: z.coerce.number().int() }),
        querystring: z.object({ size: z.coerce.number().int().min(16).max(512).default(THUMBNAIL_SIZE) }),
      },
    },
    async (request, reply) => {
      const { user } = authedUser(request);
      // Other users' avatars arrive with the customers area; until then only one's own.
      if (request.params.id !== user.id) throw new HttpError(404, 'http.not_found');
      reply.header('cache-control', 'private, max-age=300').type('image/svg+xml');
      return initialsAvatarSvg(presentUser(user).contact.display_name, request.query.size);
    },
  );
}
