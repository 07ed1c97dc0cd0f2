import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  cartAddPayloadSchema,
  cartPeriodPayloadSchema,
  cartPromoPayloadSchema,
  errorAnswerSchema,
  idParamsSchema,
  shopCartAnswerSchema,
} from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { translate } from '../../i18n/messages.ts';
import type { ActorSource } from '../audit/service.ts';
import type { CartService } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

const errors = { 401: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };

/** /api/cart: the signed-in user's own cart (the shell's badge reads GET /api/cart's rows). */
export function cartRoutes(cart: CartService, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/cart',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags: ['shop'],
          summary: "The user's server-side cart: rows, promo, totals",
          response: { 200: shopCartAnswerSchema, 401: errorAnswerSchema },
        },
      },
      async (request) => ({ data: await cart.view(authedUser(request).user, request.lang) }),
    );

    api.post(
      '/cart/items',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['shop'],
          summary: 'Add a hosting plan, a domain registration or transfer, or the renewal of a domain of the panel',
          body: cartAddPayloadSchema,
          response: { 200: shopCartAnswerSchema, ...errors },
        },
      },
      async (request) => ({
        data: await cart.add(await actors.actor(request), request.body, request.lang),
        message: translate(request.lang, 'cart.added'),
      }),
    );

    api.patch(
      '/cart/items/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['shop'],
          summary: "Change a row's period",
          params: idParamsSchema,
          body: cartPeriodPayloadSchema,
          response: { 200: shopCartAnswerSchema, ...errors },
        },
      },
      async (request) => ({
        data: await cart.changePeriod(await actors.actor(request), request.params.id, request.body.period_months, request.lang),
        message: translate(request.lang, 'cart.updated'),
      }),
    );

    api.delete(
      '/cart/items/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: { tags: ['shop'], summary: 'Remove a row', params: idParamsSchema, response: { 200: shopCartAnswerSchema, ...errors } },
      },
      async (request) => ({
        data: await cart.remove(await actors.actor(request), request.params.id, request.lang),
        message: translate(request.lang, 'cart.removed'),
      }),
    );

    api.post(
      '/cart/promo',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['shop'],
          summary: 'Apply a promo code (422 on `code` with the reason it cannot be used)',
          body: cartPromoPayloadSchema,
          response: { 200: shopCartAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const data = await cart.applyPromo(await actors.actor(request), request.body.code, request.lang);
        return { data, message: translate(request.lang, 'cart.promo_applied', { code: data.promo?.code ?? request.body.code }) };
      },
    );

    api.delete(
      '/cart/promo',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: { tags: ['shop'], summary: 'Remove the promo code', response: { 200: shopCartAnswerSchema, ...errors } },
      },
      async (request) => ({
        data: await cart.removePromo(await actors.actor(request), request.lang),
        message: translate(request.lang, 'cart.promo_removed'),
      }),
    );
  };
}
