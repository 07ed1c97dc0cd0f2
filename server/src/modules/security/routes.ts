import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorAnswerSchema, securitySettingsAnswerSchema, securitySettingsPayloadSchema } from '@berth/contracts';
import { requireAbility } from '../policy/guard.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';
import { translate } from '../../i18n/messages.ts';
import type { ActorSource } from '../audit/service.ts';
import type { SecuritySettingsService } from './service.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 422: errorAnswerSchema };

export function securityRoutes(security: SecuritySettingsService, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['security'];

    api.get(
      '/system/security',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('security.manage'),
        schema: {
          tags,
          summary: "Who must have a second factor: this tenant's customers, every admin (admins only)",
          response: { 200: securitySettingsAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await security.get(await actors.actor(request), request.tenant.id) }),
    );

    api.patch(
      '/system/security',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('security.manage'),
        schema: {
          tags,
          summary: "Require a second factor of this tenant's customers (admins), or of every admin (super admins)",
          body: securitySettingsPayloadSchema,
          response: { 200: securitySettingsAnswerSchema, ...errors },
        },
      },
      async (request) => ({
        data: await security.update(await actors.actor(request), request.tenant.id, request.body),
        message: translate(request.lang, 'security.saved'),
      }),
    );
  };
}
