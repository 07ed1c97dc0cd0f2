import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorAnswerSchema,
  idSchema,
  messageAnswerSchema,
  webhookDeliveriesAnswerSchema,
  webhookEndpointPayloadSchema,
  webhookEndpointSchema,
  webhookEndpointUpdateSchema,
  webhookEndpointsAnswerSchema,
  webhookSecretAnswerSchema,
  webhookAllowedRangesAnswerSchema,
  webhookAllowedRangesPayloadSchema,
} from '@berth/contracts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';
import { translate } from '../../i18n/messages.ts';
import { requireAbility } from '../policy/guard.ts';
import type { ActorSource } from '../audit/service.ts';
import type { WebhookAllowedRangeList } from './allowed-ranges.ts';
import type { WebhookService } from './service.ts';

const idParams = z.object({ id: idSchema });
const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };

/** Mounted under /api/system: the signed-in admin's tenant's webhook endpoints (`webhooks.manage`). */
export function webhooksRoutes(webhooks: WebhookService, allowedRanges: WebhookAllowedRangeList, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const guard = requireAbility('webhooks.manage');
    const tags = ['webhooks'];

    // Registered before /webhooks/:id so the literal path wins.
    api.get(
      '/webhooks/allowed-ranges',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('webhooks.allow_ranges'),
        schema: {
          tags,
          summary: 'Super admins: the private ranges every tenant’s webhooks may reach (and those of WEBHOOK_ALLOWED_RANGES)',
          response: { 200: webhookAllowedRangesAnswerSchema, ...errors },
        },
      },
      async () => ({ data: await allowedRanges.get() }),
    );
    api.put(
      '/webhooks/allowed-ranges',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('webhooks.allow_ranges'),
        schema: {
          tags,
          summary: 'Super admins: replaces the allowed private ranges (addresses or CIDR ranges, IPv4 or IPv6)',
          body: webhookAllowedRangesPayloadSchema,
          response: { 200: webhookAllowedRangesAnswerSchema, ...errors },
        },
      },
      async (request) => ({
        data: await allowedRanges.set(await actors.actor(request), request.body.ranges),
        message: translate(request.lang, 'webhooks.ranges_saved'),
      }),
    );

    api.get(
      '/webhooks',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: guard,
        schema: { tags, summary: "The tenant's webhook endpoints", response: { 200: webhookEndpointsAnswerSchema, ...errors } },
      },
      async (request) => ({ data: await webhooks.list(request.tenant.id) }),
    );
    api.post(
      '/webhooks',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: guard,
        schema: {
          tags,
          summary: 'Adds an endpoint; its signing secret is in this answer only',
          body: webhookEndpointPayloadSchema,
          response: { 201: webhookSecretAnswerSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send({ data: await webhooks.create(request.tenant.id, request.body), message: translate(request.lang, 'webhooks.created') }),
    );
    api.patch(
      '/webhooks/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: guard,
        schema: {
          tags,
          summary: "Changes an endpoint's address, events, description or whether it is on",
          params: idParams,
          body: webhookEndpointUpdateSchema,
          response: { 200: z.object({ data: webhookEndpointSchema, message: z.string() }), ...errors },
        },
      },
      async (request) => ({
        data: await webhooks.update(request.tenant.id, request.params.id, request.body),
        message: translate(request.lang, 'webhooks.saved'),
      }),
    );
    api.delete(
      '/webhooks/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: guard,
        schema: {
          tags,
          summary: 'Removes an endpoint and its delivery log',
          params: idParams,
          response: { 200: messageAnswerSchema, ...errors },
        },
      },
      async (request) => {
        await webhooks.remove(request.tenant.id, request.params.id);
        return { message: translate(request.lang, 'webhooks.deleted') };
      },
    );
    api.post(
      '/webhooks/:id/rotate',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: guard,
        schema: {
          tags,
          summary: 'A new signing secret (in this answer only); the old one keeps signing for 24 hours',
          params: idParams,
          response: { 200: webhookSecretAnswerSchema, ...errors },
        },
      },
      async (request) => ({
        data: await webhooks.rotate(request.tenant.id, request.params.id),
        message: translate(request.lang, 'webhooks.rotated'),
      }),
    );
    api.post(
      '/webhooks/:id/test',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: guard,
        schema: {
          tags,
          summary: 'Sends a webhook.test event to this endpoint',
          params: idParams,
          response: { 202: messageAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        await webhooks.test(request.tenant.id, request.params.id);
        return reply.code(202).send({ message: translate(request.lang, 'webhooks.test_sent') });
      },
    );
    api.get(
      '/webhooks/:id/deliveries',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: guard,
        schema: {
          tags,
          summary: "The endpoint's last 100 delivery attempts, newest first",
          params: idParams,
          response: { 200: webhookDeliveriesAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await webhooks.deliveries(request.tenant.id, request.params.id) }),
    );
    api.post(
      '/webhooks/deliveries/:id/replay',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: guard,
        schema: {
          tags,
          summary: 'Sends a logged event again, as it was',
          params: idParams,
          response: { 202: messageAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        await webhooks.replay(request.tenant.id, request.params.id);
        return reply.code(202).send({ message: translate(request.lang, 'webhooks.replayed') });
      },
    );
  };
}
