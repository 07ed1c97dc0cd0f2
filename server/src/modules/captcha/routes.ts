import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { altchaChallengeSchema, captchaConfigAnswerSchema, errorAnswerSchema } from '@berth/contracts';
import { HttpError } from '../../http/errors.ts';
import type { CaptchaVerifier } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

/** Mounted under /api by the app. */
export function captchaRoutes(verifier: CaptchaVerifier) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/captcha',
      {
        config: { rateLimit: RATE_LIMITS.public },
        schema: {
          tags: ['auth'],
          summary: 'Which captcha the registration form shows',
          response: { 200: captchaConfigAnswerSchema },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'no-store');
        return { data: verifier.publicConfig() };
      },
    );

    api.get(
      '/captcha/altcha',
      {
        config: { rateLimit: RATE_LIMITS.public },
        schema: {
          tags: ['auth'],
          summary: 'A fresh ALTCHA proof-of-work challenge (only when ALTCHA is the captcha)',
          response: { 200: altchaChallengeSchema, 404: errorAnswerSchema },
        },
      },
      async (_request, reply) => {
        const challenge = await verifier.altchaChallenge();
        if (!challenge) throw new HttpError(404, 'http.not_found');
        reply.header('cache-control', 'no-store');
        // Spread into plain objects: altcha-lib's interfaces have no index signature.
        return { ...challenge, parameters: { ...challenge.parameters } };
      },
    );
  };
}
