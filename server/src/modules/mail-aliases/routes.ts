import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorAnswerSchema,
  idParamsSchema,
  idSchema,
  mailAliasAnswerSchema,
  mailAliasCreatePayloadSchema,
  mailAliasListAnswerSchema,
} from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';
import { translate } from '../../i18n/messages.ts';
import type { ActorSource } from '../audit/service.ts';
import type { MailAliases } from './service.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };

export function mailAliasRoutes(aliases: MailAliases, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['mail forwarders'];

    api.get(
      '/host/domain/:id/aliases',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags,
          summary: "A domain's forwarders: mail for an address there goes on to another address",
          params: idParamsSchema,
          response: { 200: mailAliasListAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await aliases.list(authedUser(request).user, request.params.id) }),
    );

    api.post(
      '/host/domain/:id/aliases',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'Add a forwarder: local_part (sales or sales@<domain>) to destination (any e-mail address)',
          params: idParamsSchema,
          body: mailAliasCreatePayloadSchema,
          response: { 201: mailAliasAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const alias = await aliases.create(await actors.actor(request), request.params.id, request.body);
        return reply.code(201).send({
          data: alias,
          message: translate(request.lang, 'mail_alias.created', { address: alias.address, destination: alias.destination }),
        });
      },
    );

    api.delete(
      '/host/domain/:id/aliases/:aliasId',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'Remove a forwarder',
          params: z.object({ id: idSchema, aliasId: idSchema }),
          response: { 200: mailAliasAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const alias = await aliases.remove(await actors.actor(request), request.params.id, request.params.aliasId);
        return {
          data: alias,
          message: translate(request.lang, 'mail_alias.deleted', { address: alias.address, destination: alias.destination }),
        };
      },
    );
  };
}
