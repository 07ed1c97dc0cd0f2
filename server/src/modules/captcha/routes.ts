import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { captchaConfigAnswerSchema, errorAnswerSchema } from '@berth/contracts';
import { HttpError } from '../../http/errors.ts';
import type { CaptchaVerifier } from './service.ts';

/**
 * An ALTCHA v2 proof-of-work challenge, bare (no envelope) because the widget reads it as is.
 * Loose objects: the signature covers every parameter, so none may be dropped on the way out.
 */
export const altchaChallengeSchema = z.looseObject({
  parameters: z.looseObject({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  }),
  signature: z.string().optional(),
});

/** Mounted under /api by the app. */
export function captchaRoutes(verifier: CaptchaVerifier) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/captcha',
      {
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
