import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  emailChangePayloadSchema,
  errorAnswerSchema,
  messageAnswerSchema,
  registerVerifyAnswerSchema,
  registerVerifyPayloadSchema,
  registrationAnswerSchema,
  registrationPayloadSchema,
} from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { translate } from '../../i18n/messages.ts';
import { issueSession } from '../auth/issue-session.ts';
import type { SessionService } from '../sessions/service.ts';
import type { RegistrationService } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

const errors = { 401: errorAnswerSchema, 422: errorAnswerSchema, 429: errorAnswerSchema };

export function registrationRoutes(registration: RegistrationService, sessions: SessionService) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.post(
      '/registration',
      {
        config: { rateLimit: RATE_LIMITS.auth },
        schema: {
          tags: ['auth'],
          summary:
            'Register a customer account: mails an activation link (or, for an address with an account, a notice to its owner); the same answer either way',
          body: registrationPayloadSchema,
          response: { 200: registrationAnswerSchema, ...errors },
        },
      },
      async (request) => {
        await registration.register(request.body, { tenant: request.tenant, ip: request.ip, lang: request.lang });
        return { data: { status: 'verification_required' as const }, message: translate(request.lang, 'registration.done') };
      },
    );

    api.patch(
      '/register/verify',
      {
        config: { signsIn: true, rateLimit: RATE_LIMITS.auth },
        schema: {
          tags: ['auth'],
          summary: 'Verify the e-mail address with the code from the mail; a new registration is activated and signed in',
          body: registerVerifyPayloadSchema,
          response: { 200: registerVerifyAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const registered = await registration.verify(request.body.code, { tenant: request.tenant, ip: request.ip });
        if (!registered) return { message: translate(request.lang, 'registration.verified') };
        const data = await issueSession(sessions, request, reply, registered, { remember: false, twoFactorPending: false });
        return { data, message: translate(request.lang, 'registration.activated') };
      },
    );

    api.patch(
      '/account/email',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['account'],
          summary: 'Change the own e-mail address (needs the current password); the new one must be verified',
          body: emailChangePayloadSchema,
          response: { 200: messageAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const { user, session } = authedUser(request);
        await registration.changeEmail(user, request.body, { tenant: request.tenant, ip: request.ip, sessionIdHash: session.idHash });
        return { message: translate(request.lang, 'registration.email_changed') };
      },
    );

    api.post(
      '/register/resend',
      {
        config: { rateLimit: RATE_LIMITS.auth },
        preHandler: requireUser,
        schema: {
          tags: ['auth'],
          summary: 'Send the verification e-mail again',
          response: { 200: messageAnswerSchema, ...errors },
        },
      },
      async (request) => {
        await registration.resend(authedUser(request).user, request.tenant);
        return { message: translate(request.lang, 'registration.verification_sent') };
      },
    );
  };
}
