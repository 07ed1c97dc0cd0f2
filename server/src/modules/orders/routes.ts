import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { checkoutAnswerSchema, checkoutPayloadSchema, errorAnswerSchema, idempotencyKeySchema } from '@berth/contracts';
import { requireUser } from '../../http/context.ts';
import { fieldError } from '../../http/errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { ActorSource } from '../audit/service.ts';
import type { CheckoutService } from './checkout.ts';

const errors = { 401: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };

export function orderRoutes(checkout: CheckoutService, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.post(
      '/shop/checkout',
      {
        preHandler: requireUser,
        schema: {
          tags: ['shop'],
          summary:
            'Order the cart (or, with `item`, that one product): order, invoice, promo and payment in one transaction; the same idempotency key (body or Idempotency-Key header) answers the same order',
          body: checkoutPayloadSchema,
          response: { 200: checkoutAnswerSchema, 201: checkoutAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        let key = request.body.idempotency_key;
        const header = request.headers['idempotency-key'];
        if (key === undefined && typeof header === 'string') {
          const parsed = idempotencyKeySchema.safeParse(header);
          if (!parsed.success) throw fieldError('idempotency_key', 'validation.invalid');
          key = parsed.data;
        }
        const { result, created } = await checkout.checkout(
          await actors.actor(request),
          {
            payment: request.body.payment,
            paymentMethodId: request.body.payment_method_id ?? null,
            idempotencyKey: key,
            item: request.body.item,
          },
          request.lang,
        );
        const message = translate(request.lang, result.status === 'paid' ? 'checkout.paid' : 'checkout.pending', {
          number: result.invoice.number,
        });
        return reply.code(created ? 201 : 200).send({ data: result, message });
      },
    );
  };
}
