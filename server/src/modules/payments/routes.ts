import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BANK_STATEMENT_COLUMNS,
  BANK_STATEMENT_MAX_BYTES,
  bankStatementAnswerSchema,
  bankStatementQuerySchema,
  cardSetupAnswerSchema,
  cardSetupParamsSchema,
  errorAnswerSchema,
  idParamsSchema,
  messageAnswerSchema,
  paymentMethodAnswerSchema,
  paymentMethodListAnswerSchema,
  paymentMethodPayloadSchema,
} from '@berth/contracts';
import { authedUser } from '../../http/context.ts';
import { requireAbility } from '../policy/guard.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { ActorSource } from '../audit/service.ts';
import { StatementFormatError, BANK_STATEMENT_MAX_LINES } from './bank-statement.ts';
import type { PaymentConfirmation } from './confirmation.ts';
import type { PaymentMethods } from './methods.ts';
import { StripeSignatureError } from './stripe-gateway.ts';
import type { StripeWebhooks } from './stripe.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };

/**
 * The panel's address as this request reached it, for Stripe to send the browser back to; null
 * when the Host header names none of the tenant's hosts (the tenant's public URL is used then).
 */
const requestOrigin = (request: FastifyRequest): string | null => {
  const hostname = request.hostname.toLowerCase();
  return request.tenant.hosts.includes(hostname) ? `${request.protocol}://${request.host}` : null;
};

/** /account/payment-methods: the signed-in user's saved ways to pay. */
export function paymentMethodRoutes(methods: PaymentMethods, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['payments'];

    api.get(
      '/account/payment-methods',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('payment_methods.use'),
        schema: {
          tags,
          summary: 'Your payment methods, default first (super admins and host_purchases tenants)',
          response: { 200: paymentMethodListAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await methods.list(authedUser(request).user), available_kinds: methods.availableKinds() }),
    );

    api.post(
      '/account/payment-methods',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('payment_methods.use'),
        schema: {
          tags,
          summary:
            'Save a payment method: your bank account (IBAN checked) or a card collected by Stripe (its pm_ id); the first one is the default',
          body: paymentMethodPayloadSchema,
          response: { 201: paymentMethodAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const method = await methods.add(await actors.actor(request), request.body);
        return reply.code(201).send({ data: method, message: translate(request.lang, 'payments.method_added') });
      },
    );

    api.post(
      '/account/payment-methods/card-setup',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('payment_methods.use'),
        schema: {
          tags,
          summary:
            'Add a card: answers the URL of a Stripe Checkout page (setup mode) that returns to /account/payment-methods?card_setup={session id}',
          response: { 200: cardSetupAnswerSchema, ...errors, 503: errorAnswerSchema },
        },
      },
      async (request) => ({ data: await methods.startCardSetup(await actors.actor(request), requestOrigin(request)) }),
    );

    api.post(
      '/account/payment-methods/card-setup/:sessionId',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('payment_methods.use'),
        schema: {
          tags,
          summary:
            "Save the card of your finished Stripe setup session (201; 200 when it was already saved; 404 someone else's; 422 not finished)",
          params: cardSetupParamsSchema,
          response: { 200: paymentMethodAnswerSchema, 201: paymentMethodAnswerSchema, ...errors, 503: errorAnswerSchema },
        },
      },
      async (request, reply) => {
        const result = await methods.completeCardSetup(await actors.actor(request), request.params.sessionId);
        return reply
          .code(result.created ? 201 : 200)
          .send({ data: result.method, message: translate(request.lang, 'payments.card_saved') });
      },
    );

    api.patch(
      '/account/payment-methods/:id/default',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('payment_methods.use'),
        schema: {
          tags,
          summary: 'Make a payment method your default',
          params: idParamsSchema,
          response: { 200: paymentMethodAnswerSchema, ...errors },
        },
      },
      async (request) => ({
        data: await methods.makeDefault(await actors.actor(request), request.params.id),
        message: translate(request.lang, 'payments.method_default'),
      }),
    );

    api.delete(
      '/account/payment-methods/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('payment_methods.use'),
        schema: {
          tags,
          summary: 'Remove a payment method (the oldest other one becomes the default)',
          params: idParamsSchema,
          response: { 200: messageAnswerSchema, ...errors },
        },
      },
      async (request) => {
        await methods.remove(await actors.actor(request), request.params.id);
        return { message: translate(request.lang, 'payments.method_removed') };
      },
    );
  };
}

/** /system/payments: confirming payments by bank statement. */
export function paymentAdminRoutes(confirmation: PaymentConfirmation, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['payments'];

    api.post(
      '/system/payments/bank-statement',
      {
        config: { rateLimit: RATE_LIMITS.upload },
        preHandler: requireAbility('invoices.manage'),
        schema: {
          tags,
          summary: `Import a bank statement (multipart field "file": CSV with the columns ${BANK_STATEMENT_COLUMNS.join(', ')}); lines are matched to unpaid invoices by reference and exact amount`,
          querystring: bankStatementQuerySchema,
          response: { 200: bankStatementAnswerSchema, ...errors },
        },
      },
      async (request) => {
        // Role and tenant are checked before the upload is read.
        const actor = await actors.actor(request);
        const tenantId = await confirmation.statementTenant(actor.user, request.query.tenant_id);
        const file = request.isMultipart() ? await request.file({ limits: { fileSize: BANK_STATEMENT_MAX_BYTES, files: 1 } }) : undefined;
        if (!file) throw fieldError('file', 'validation.required');
        const buffer = await file.toBuffer().catch(() => {
          throw fieldError('file', 'payments.statement_unreadable');
        });
        const result = await confirmation.importStatement(actor, tenantId, buffer).catch((error: unknown) => {
          if (!(error instanceof StatementFormatError)) throw error;
          if (error.kind === 'columns')
            throw fieldError('file', 'payments.statement_columns', { columns: BANK_STATEMENT_COLUMNS.join(', ') });
          if (error.kind === 'too_many') throw fieldError('file', 'payments.statement_too_many', { max: BANK_STATEMENT_MAX_LINES });
          throw fieldError('file', 'payments.statement_unreadable');
        });
        const other = result.lines.length - result.counts.matched;
        return { data: result, message: translate(request.lang, 'payments.statement_imported', { matched: result.counts.matched, other }) };
      },
    );
  };
}

/**
 * POST /api/payments/stripe/webhook: Stripe's server calls it (no session, no browser headers).
 * The signature covers the exact bytes, so this route reads its body raw.
 */
export function stripeWebhookRoute(webhooks: StripeWebhooks) {
  return async (app: FastifyInstance): Promise<void> => {
    app.removeContentTypeParser(['application/json']);
    app.addContentTypeParser(['application/json', '*'], { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    app.withTypeProvider<ZodTypeProvider>().post(
      '/payments/stripe/webhook',
      {
        config: { rateLimit: RATE_LIMITS.webhook },
        schema: {
          tags: ['payments'],
          summary: 'Stripe events (signed with the webhook secret): a paid Checkout Session or PaymentIntent settles its invoice',
          response: { 200: z.object({ received: z.literal(true) }), 400: errorAnswerSchema },
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['stripe-signature'];
        try {
          await webhooks.handle(body, typeof signature === 'string' ? signature : undefined);
        } catch (error) {
          // No detail: a forger learns nothing from the answer.
          if (error instanceof StripeSignatureError) throw new HttpError(400, 'http.bad_request');
          throw error;
        }
        return { received: true as const };
      },
    );
  };
}
