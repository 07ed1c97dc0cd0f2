import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiTokenCreatedAnswerSchema,
  apiTokenCreatePayloadSchema,
  apiTokenListAnswerSchema,
  errorAnswerSchema,
  idParamsSchema,
  messageAnswerSchema,
} from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { requireAbility } from '../policy/guard.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';
import { translate } from '../../i18n/messages.ts';
import type { ActorSource } from '../audit/service.ts';
import type { ApiTokenService } from './service.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };

export function apiTokenRoutes(tokens: ApiTokenService, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['api-tokens'];

    api.get(
      '/account/api-tokens',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: { tags, summary: 'Your API tokens (never the tokens themselves)', response: { 200: apiTokenListAnswerSchema, ...errors } },
      },
      async (request) => ({ data: await tokens.list(authedUser(request).user) }),
    );

    api.post(
      '/account/api-tokens',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'Create an API token with scopes, an optional expiry and address blocks; the answer shows it once',
          body: apiTokenCreatePayloadSchema,
          response: { 201: apiTokenCreatedAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const data = await tokens.create(await actors.actor(request), request.body);
        return reply.code(201).send({ data, message: translate(request.lang, 'api_tokens.created') });
      },
    );

    api.delete(
      '/account/api-tokens/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'Revoke one of your API tokens, at once',
          params: idParamsSchema,
          response: { 200: messageAnswerSchema, ...errors },
        },
      },
      async (request) => {
        await tokens.revoke(await actors.actor(request), request.params.id);
        return { message: translate(request.lang, 'api_tokens.revoked') };
      },
    );

    api.get(
      '/system/api-tokens',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('security.manage'),
        schema: {
          tags,
          summary: "The tenant's API tokens, with their owners (admins)",
          response: { 200: apiTokenListAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await tokens.listForTenant(await actors.actor(request), request.tenant.id) }),
    );

    api.delete(
      '/system/api-tokens/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('security.manage'),
        schema: {
          tags,
          summary: "Revoke a token of the tenant's users (admins)",
          params: idParamsSchema,
          response: { 200: messageAnswerSchema, ...errors },
        },
      },
      async (request) => {
        await tokens.revokeForTenant(await actors.actor(request), request.tenant.id, request.params.id);
        return { message: translate(request.lang, 'api_tokens.revoked') };
      },
    );
  };
}
