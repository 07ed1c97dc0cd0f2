import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { domainUserPasswordPayloadSchema, errorAnswerSchema, messageAnswerSchema } from '@berth/contracts';
import { translate } from '../../i18n/messages.ts';
import type { DomainUserPasswordService } from './service.ts';

export function domainUserPasswordRoutes(service: DomainUserPasswordService) {
  return async (app: FastifyInstance): Promise<void> => {
    app.withTypeProvider<ZodTypeProvider>().patch(
      '/host/domain-user/change-password',
      {
        schema: {
          tags: ['domain users'],
          summary: 'A mailbox/FTP user changes their own password with the old one',
          body: domainUserPasswordPayloadSchema,
          response: { 200: messageAnswerSchema, 422: errorAnswerSchema, 429: errorAnswerSchema },
        },
      },
      async (request) => {
        const uid = await service.change(request.body, { tenantId: request.tenant.id, ip: request.ip });
        return { message: translate(request.lang, 'domain_user.password_changed', { uid }) };
      },
    );
  };
}
