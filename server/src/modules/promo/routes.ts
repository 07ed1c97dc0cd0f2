import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorAnswerSchema,
  idParamsSchema,
  messageAnswerSchema,
  pageQuerySchema,
  promoAnswerSchema,
  promoListAnswerSchema,
  promoPatchSchema,
  promoPayloadSchema,
} from '@berth/contracts';
import { authedUser } from '../../http/context.ts';
import { requireAbility } from '../policy/guard.ts';
import { translate } from '../../i18n/messages.ts';
import type { ActorSource } from '../audit/service.ts';
import { shopTenantOf } from '../shop/tenant.ts';
import type { PromoAdmin } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };

export function promoRoutes(promos: PromoAdmin, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/system/partner/promo',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('promo.manage'),
        schema: {
          tags: ['promo'],
          summary: "The tenant's promo codes, newest first (admins of a tenant that sells: policy promo.manage)",
          querystring: pageQuerySchema,
          response: { 200: promoListAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const { user } = authedUser(request);
        return promos.list(user, shopTenantOf(user, request.tenant.id), request.query, request.lang);
      },
    );

    api.post(
      '/system/partner/promo',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('promo.manage'),
        schema: {
          tags: ['promo'],
          summary: 'Create a promo code: percent or fixed, validity window, max uses, once per customer, product restriction',
          body: promoPayloadSchema,
          response: { 201: promoAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const actor = await actors.actor(request);
        const data = await promos.create(actor, shopTenantOf(actor.user, request.tenant.id), request.body, request.lang);
        return reply.code(201).send({ data, message: translate(request.lang, 'promo.created', { code: data.code }) });
      },
    );

    api.patch(
      '/system/partner/promo/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('promo.manage'),
        schema: {
          tags: ['promo'],
          summary: 'Change a promo code',
          params: idParamsSchema,
          body: promoPatchSchema,
          response: { 200: promoAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const actor = await actors.actor(request);
        const data = await promos.update(actor, shopTenantOf(actor.user, request.tenant.id), request.params.id, request.body, request.lang);
        return { data, message: translate(request.lang, 'promo.saved', { code: data.code }) };
      },
    );

    api.delete(
      '/system/partner/promo/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('promo.manage'),
        schema: {
          tags: ['promo'],
          summary: 'Delete a promo code',
          params: idParamsSchema,
          response: { 200: messageAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const actor = await actors.actor(request);
        const code = await promos.remove(actor, shopTenantOf(actor.user, request.tenant.id), request.params.id);
        return { message: translate(request.lang, 'promo.deleted', { code }) };
      },
    );
  };
}
