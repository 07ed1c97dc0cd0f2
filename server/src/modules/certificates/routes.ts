import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { certificateAnswerSchema, certificateUploadPayloadSchema, errorAnswerSchema, idParamsSchema } from '@berth/contracts';
import type { ActorSource } from '../audit/service.ts';
import { authedUser, requireUser } from '../../http/context.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';
import { translate } from '../../i18n/messages.ts';
import { requireAbility } from '../policy/guard.ts';
import type { CertificateService } from './service.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 409: errorAnswerSchema, 422: errorAnswerSchema };

/** A domain's certificate on its page: who may see the domain may see and renew it. */
export function certificateRoutes(certificates: CertificateService, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/host/domain/:id/certificate',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags: ['certificates'],
          summary: "The domain's certificate: names, issuer, validity, how the CA checked it, and its state",
          params: idParamsSchema,
          response: { 200: certificateAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await certificates.describe(authedUser(request).user, request.params.id) }),
    );

    api.get(
      '/system/certificate',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('servers.manage'),
        schema: {
          tags: ['certificates'],
          summary: "The panel's own certificate (BERTH_PUBLIC_URL's host and webmail's): every server's default",
          response: { 200: certificateAnswerSchema, 401: errorAnswerSchema, 403: errorAnswerSchema },
        },
      },
      async () => ({ data: await certificates.describePlatform() }),
    );

    api.put(
      '/host/domain/:id/certificate',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['certificates'],
          summary: "Use one's own certificate: the PEM chain and its key, checked (key, chain, names, dates) with the reason on the field",
          params: idParamsSchema,
          body: certificateUploadPayloadSchema,
          response: { 200: certificateAnswerSchema, ...errors },
        },
      },
      async (request) => ({
        data: await certificates.upload(await actors.actor(request), request.params.id, request.body),
        message: translate(request.lang, 'certificates.uploaded'),
      }),
    );

    api.post(
      '/host/domain/:id/certificate/renew',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['certificates'],
          summary: 'Order a new certificate now (refused while one is ordered or a failed order waits for its next try)',
          params: idParamsSchema,
          response: { 202: certificateAnswerSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(202).send({
          data: await certificates.renewNow(authedUser(request).user, request.params.id),
          message: translate(request.lang, 'certificates.ordered'),
        }),
    );
  };
}
