import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  checkoutAnswerSchema,
  checkoutPayloadSchema,
  subscriptionChangePayloadSchema,
  idempotencyKeySchema,
  adminCatalogueAnswerSchema,
  catalogueAnswerSchema,
  domainCheckAnswerSchema,
  domainCheckQuerySchema,
  errorAnswerSchema,
  hostingPlanAnswerSchema,
  hostingPlanPatchSchema,
  hostingPlanPayloadSchema,
  idParamsSchema,
  messageAnswerSchema,
  paymentOptionsAnswerSchema,
  shopSettingsPayloadSchema,
  subscriptionCancelAnswerSchema,
  subscriptionsAnswerSchema,
  subscriptionAnswerSchema,
  subscriptionPatchSchema,
  tldPriceAnswerSchema,
  tldPricePatchSchema,
  tldPricePayloadSchema,
} from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { requireAbility } from '../policy/guard.ts';
import { fieldError } from '../../http/errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { ActorSource } from '../audit/service.ts';
import type { CheckoutService } from '../orders/checkout.ts';
import type { ShopCatalogue } from './service.ts';
import { shopTenantOf } from './tenant.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };

export function shopRoutes(shop: ShopCatalogue, checkout: CheckoutService, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/shop/products',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags: ['shop'],
          summary: "The tenant's hosting plans and domain prices per TLD (net, VAT, gross)",
          response: { 200: catalogueAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await shop.catalogue(authedUser(request).user, request.lang) }),
    );

    api.get(
      '/shop/domain-check',
      {
        config: { rateLimit: RATE_LIMITS.search },
        preHandler: requireUser,
        schema: {
          tags: ['shop'],
          summary: 'Whether a domain is free in this panel, with its TLD prices',
          querystring: domainCheckQuerySchema,
          response: { 200: domainCheckAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await shop.domainCheck(authedUser(request).user, request.query.name, request.lang) }),
    );

    api.get(
      '/shop/payment-options',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags: ['shop'],
          summary: 'The ways to pay and whether each is available for this tenant',
          response: { 200: paymentOptionsAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await shop.paymentOptions(authedUser(request).user) }),
    );

    api.get(
      '/shop/subscriptions',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags: ['shop'],
          summary: "The user's hosting plans bought in the shop",
          response: { 200: subscriptionsAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const { user } = authedUser(request);
        const [data, usage] = await Promise.all([shop.subscriptions(user, request.lang), shop.planUsage(user)]);
        return { data, usage };
      },
    );

    api.patch(
      '/shop/subscriptions/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['shop'],
          summary: "Switch the automatic renewal of one of the user's hosting plans",
          params: idParamsSchema,
          body: subscriptionPatchSchema,
          response: { 200: subscriptionAnswerSchema, ...errors },
        },
      },
      async (request) => shop.setAutoRenew(await actors.actor(request), request.params.id, request.body.auto_renew, request.lang),
    );

    api.post(
      '/shop/subscriptions/:id/cancel',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['shop'],
          summary: "End one of the user's active hosting plans now; the unused part of what was paid goes to their credit",
          params: idParamsSchema,
          response: { 200: subscriptionCancelAnswerSchema, ...errors, 409: errorAnswerSchema },
        },
      },
      async (request) => {
        const done = await shop.cancelSubscription(await actors.actor(request), request.params.id, request.lang);
        return {
          data: { refunded: done.refunded, formatted: done.formatted },
          message: translate(request.lang, 'services.cancelled', { title: done.title, amount: done.formatted }),
        };
      },
    );

    api.post(
      '/shop/subscriptions/:id/change',
      {
        config: { rateLimit: RATE_LIMITS.checkout },
        preHandler: requireUser,
        schema: {
          tags: ['shop'],
          summary:
            "Change one of the user's active hosting plans: it ends now, its unused days go to the credit, and the credit pays the new plan, all or nothing",
          params: idParamsSchema,
          body: subscriptionChangePayloadSchema,
          response: { 200: checkoutAnswerSchema, 201: checkoutAnswerSchema, ...errors, 409: errorAnswerSchema },
        },
      },
      async (request, reply) => {
        const { plan_id, period_months, idempotency_key } = request.body;
        const { result, created, replaced } = await checkout.changePlan(
          await actors.actor(request),
          request.params.id,
          { plan_id, period_months, idempotencyKey: idempotency_key },
          request.lang,
        );
        const message = replaced
          ? translate(request.lang, 'services.changed', {
              title: result.invoice.lines[0]?.title ?? '',
              old: replaced.title,
              amount: replaced.formatted,
              number: result.invoice.number,
            })
          : translate(request.lang, 'checkout.paid', { number: result.invoice.number });
        return reply.code(created ? 201 : 200).send({ data: result, message });
      },
    );

    /* ---- administration ---- */

    api.get(
      '/system/shop/catalogue',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('catalogue.manage'),
        schema: {
          tags: ['shop admin'],
          summary: "Admins: the tenant's shop settings and every product, inactive included",
          response: { 200: adminCatalogueAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const { user } = authedUser(request);
        return { data: await shop.adminCatalogue(user, shopTenantOf(user, request.tenant.id), request.lang) };
      },
    );

    api.patch(
      '/system/shop/settings',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('catalogue.manage'),
        schema: {
          tags: ['shop admin'],
          summary: 'Admins: currency, VAT rate, partner commission rate and top-up limits',
          body: shopSettingsPayloadSchema,
          response: { 200: adminCatalogueAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const actor = await actors.actor(request);
        const data = await shop.updateSettings(actor, shopTenantOf(actor.user, request.tenant.id), request.body, request.lang);
        return { data, message: translate(request.lang, 'shop.settings_saved') };
      },
    );

    api.post(
      '/system/shop/plans',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('catalogue.manage'),
        schema: {
          tags: ['shop admin'],
          summary: 'Admins: add a hosting plan (net prices in minor units)',
          body: hostingPlanPayloadSchema,
          response: { 201: hostingPlanAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const actor = await actors.actor(request);
        const data = await shop.createPlan(actor, shopTenantOf(actor.user, request.tenant.id), request.body, request.lang);
        return reply.code(201).send({ data, message: translate(request.lang, 'shop.plan_saved') });
      },
    );

    api.patch(
      '/system/shop/plans/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('catalogue.manage'),
        schema: {
          tags: ['shop admin'],
          summary: 'Admins: change a hosting plan',
          params: idParamsSchema,
          body: hostingPlanPatchSchema,
          response: { 200: hostingPlanAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const actor = await actors.actor(request);
        const data = await shop.updatePlan(
          actor,
          shopTenantOf(actor.user, request.tenant.id),
          request.params.id,
          request.body,
          request.lang,
        );
        return { data, message: translate(request.lang, 'shop.plan_saved') };
      },
    );

    api.delete(
      '/system/shop/plans/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('catalogue.manage'),
        schema: {
          tags: ['shop admin'],
          summary: 'Admins: delete a hosting plan',
          params: idParamsSchema,
          response: { 200: messageAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const actor = await actors.actor(request);
        await shop.deletePlan(actor, shopTenantOf(actor.user, request.tenant.id), request.params.id);
        return { message: translate(request.lang, 'shop.plan_deleted') };
      },
    );

    api.post(
      '/system/shop/tlds',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('catalogue.manage'),
        schema: {
          tags: ['shop admin'],
          summary: 'Admins: sell a TLD (net prices per year in minor units)',
          body: tldPricePayloadSchema,
          response: { 201: tldPriceAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const actor = await actors.actor(request);
        const data = await shop.createTld(actor, shopTenantOf(actor.user, request.tenant.id), request.body, request.lang);
        return reply.code(201).send({ data, message: translate(request.lang, 'shop.tld_saved') });
      },
    );

    api.patch(
      '/system/shop/tlds/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('catalogue.manage'),
        schema: {
          tags: ['shop admin'],
          summary: "Admins: change a TLD's prices",
          params: idParamsSchema,
          body: tldPricePatchSchema,
          response: { 200: tldPriceAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const actor = await actors.actor(request);
        const data = await shop.updateTld(
          actor,
          shopTenantOf(actor.user, request.tenant.id),
          request.params.id,
          request.body,
          request.lang,
        );
        return { data, message: translate(request.lang, 'shop.tld_saved') };
      },
    );

    api.delete(
      '/system/shop/tlds/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('catalogue.manage'),
        schema: {
          tags: ['shop admin'],
          summary: 'Admins: stop selling a TLD',
          params: idParamsSchema,
          response: { 200: messageAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const actor = await actors.actor(request);
        await shop.deleteTld(actor, shopTenantOf(actor.user, request.tenant.id), request.params.id);
        return { message: translate(request.lang, 'shop.tld_deleted') };
      },
    );

    api.post(
      '/shop/checkout',
      {
        config: { rateLimit: RATE_LIMITS.checkout },
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
