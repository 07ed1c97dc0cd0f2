import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorAnswerSchema, hostingServicesAnswerSchema } from '@berth/contracts';
import { requireUser } from '../../http/context.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

/**
 * Whether what the DNS and mail pages keep is served: PowerDNS, Postfix and Dovecot read Berth's
 * PostgreSQL (docs/deploy.md); on the embedded database nothing outside the panel can read it.
 * And where webmail is (server/src/config.ts webmailUrl).
 */
export function hostingServicesRoutes(onPostgres: boolean, webmailUrl: string | null) {
  return async (app: FastifyInstance): Promise<void> => {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/host/services',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags: ['hosting services'],
          summary: 'Whether zones and mailboxes are served by the name and mail servers (they read PostgreSQL)',
          response: { 200: hostingServicesAnswerSchema, 401: errorAnswerSchema },
        },
      },
      async () => ({ data: { dns: onPostgres, mail: onPostgres, webmail_url: onPostgres ? webmailUrl : null } }),
    );
  };
}
