import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { domainOptionsAnswerSchema, errorAnswerSchema, menuAnswerSchema } from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import type { DomainDirectory } from '../domains/service.ts';
import { domainMenu, navigationFor } from './service.ts';

export function menuRoutes(domains: DomainDirectory) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/menu',
      {
        preHandler: requireUser,
        schema: { tags: ['shell'], summary: "The navigation tree of the user's role", response: { 200: menuAnswerSchema } },
      },
      async (request) => ({ data: navigationFor(authedUser(request).user, request.tenant) }),
    );

    api.get(
      '/domains/live',
      {
        preHandler: requireUser,
        schema: {
          tags: ['shell'],
          summary: 'The domains of the selector: only those with no expiry or an expiry in the future',
          response: { 200: domainOptionsAnswerSchema },
        },
      },
      async (request) => ({ data: await domains.liveOptions(authedUser(request).user) }),
    );

    api.get(
      '/host/domain/:id/menu',
      {
        preHandler: requireUser,
        schema: {
          tags: ['shell'],
          summary: "A domain's own menu",
          params: z.object({ id: z.coerce.number().int().positive() }),
          response: { 200: menuAnswerSchema, 404: errorAnswerSchema },
        },
      },
      async (request) => {
        const domain = await domains.visible(authedUser(request).user, request.params.id);
        return { data: domainMenu(domain.id) };
      },
    );
  };
}
