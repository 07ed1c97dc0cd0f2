import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorAnswerSchema,
  login2faPayloadSchema,
  messageAnswerSchema,
  messageSessionAnswerSchema,
  reauthPayloadSchema,
  recoveryCodesAnswerSchema,
  recoveryPayloadSchema,
  twoFactorEnablePayloadSchema,
  twoFactorSetupAnswerSchema,
  twoFactorStatusAnswerSchema,
} from '@berth/contracts';
import { authedUser, pendingLogin, requireUser } from '../../http/context.ts';
import { translate } from '../../i18n/messages.ts';
import { issueSession } from '../auth/issue-session.ts';
import type { SessionService } from '../sessions/service.ts';
import type { Actor, TwoFactorService } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

const errors = { 401: errorAnswerSchema, 422: errorAnswerSchema, 429: errorAnswerSchema };

const actorOf = (request: FastifyRequest): Actor => {
  const { user, session } = authedUser(request);
  return {
    user,
    ip: request.ip,
    tenantId: request.tenant.id,
    tenantTitle: request.tenant.title,
    tenantPublicUrl: request.tenant.public_url,
    sessionIdHash: session.idHash,
  };
};

export function twoFactorRoutes(twoFactor: TwoFactorService, sessions: SessionService) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.post(
      '/login2fa',
      {
        config: { signsIn: true, rateLimit: RATE_LIMITS.auth },
        schema: {
          tags: ['auth'],
          summary: 'Second login step: a TOTP code (±1 step, single use)',
          body: login2faPayloadSchema,
          response: { 200: messageSessionAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const pending = pendingLogin(request);
        const context = { ip: request.ip, tenantId: request.tenant.id };
        await twoFactor.verifyLoginCode(pending.user, request.body.code, context);
        await twoFactor.succeedSecondFactor(pending.user);
        const remember = pending.session.remember;
        return { data: await issueSession(sessions, request, reply, pending.user, { remember, twoFactorPending: false }) };
      },
    );

    api.post(
      '/login2fa/recovery',
      {
        config: { signsIn: true, rateLimit: RATE_LIMITS.auth },
        schema: {
          tags: ['auth'],
          summary: 'Second login step with a one-time recovery code',
          body: recoveryPayloadSchema,
          response: { 200: messageSessionAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const pending = pendingLogin(request);
        await twoFactor.verifyRecoveryCode(pending.user, request.body.code, { ip: request.ip, tenantId: request.tenant.id });
        await twoFactor.succeedSecondFactor(pending.user);
        const data = await issueSession(sessions, request, reply, pending.user, {
          remember: pending.session.remember,
          twoFactorPending: false,
        });
        return { data, message: translate(request.lang, 'twofactor.recovery_used') };
      },
    );

    api.get(
      '/account/2fa',
      {
        config: { rateLimit: RATE_LIMITS.read, beforeTwoFactorSetup: true },
        preHandler: requireUser,
        schema: { tags: ['account'], summary: 'Two-factor status', response: { 200: twoFactorStatusAnswerSchema } },
      },
      async (request) => ({ data: await twoFactor.status(authedUser(request).user) }),
    );

    api.post(
      '/account/2fa/setup',
      {
        config: { rateLimit: RATE_LIMITS.write, beforeTwoFactorSetup: true },
        preHandler: requireUser,
        schema: {
          tags: ['account'],
          summary: 'Start enabling 2FA (needs the current password): a secret and its QR code',
          body: reauthPayloadSchema,
          response: { 200: twoFactorSetupAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await twoFactor.setup(actorOf(request), request.body.password) }),
    );

    api.post(
      '/account/2fa/enable',
      {
        config: { rateLimit: RATE_LIMITS.write, beforeTwoFactorSetup: true },
        preHandler: requireUser,
        schema: {
          tags: ['account'],
          summary: 'Confirm the new secret with a code; answers the 10 recovery codes once',
          body: twoFactorEnablePayloadSchema,
          response: { 200: recoveryCodesAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const codes = await twoFactor.enable(actorOf(request), request.body.code);
        return { data: { recovery_codes: codes }, message: translate(request.lang, 'twofactor.enabled') };
      },
    );

    api.post(
      '/account/2fa/recovery-codes',
      {
        config: { rateLimit: RATE_LIMITS.write, beforeTwoFactorSetup: true },
        preHandler: requireUser,
        schema: {
          tags: ['account'],
          summary: 'Regenerate recovery codes (needs the current password); the old set stops working',
          body: reauthPayloadSchema,
          response: { 200: recoveryCodesAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const codes = await twoFactor.regenerateRecoveryCodes(actorOf(request), request.body.password);
        return { data: { recovery_codes: codes }, message: translate(request.lang, 'twofactor.codes_regenerated') };
      },
    );

    api.post(
      '/account/2fa/disable',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['account'],
          summary: 'Disable 2FA (needs the current password)',
          body: reauthPayloadSchema,
          response: { 200: messageAnswerSchema, ...errors },
        },
      },
      async (request) => {
        await twoFactor.disable(actorOf(request), request.body.password);
        return { message: translate(request.lang, 'twofactor.disabled') };
      },
    );
  };
}
