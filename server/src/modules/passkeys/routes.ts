import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  errorAnswerSchema,
  idParamsSchema,
  messageAnswerSchema,
  passkeyAnswerSchema,
  passkeyListAnswerSchema,
  passkeyLoginPayloadSchema,
  passkeyRegisterPayloadSchema,
  passkeyRenamePayloadSchema,
  reauthPayloadSchema,
  sessionAnswerSchema,
  webauthnOptionsAnswerSchema,
} from '@berth/contracts';
import { authedUser, pendingLogin, requireUser } from '../../http/context.ts';
import { HttpError } from '../../http/errors.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';
import { translate } from '../../i18n/messages.ts';
import type { AuditService } from '../audit/service.ts';
import { issueSession } from '../auth/issue-session.ts';
import type { SessionService } from '../sessions/service.ts';
import type { PasskeyActor, PasskeyService, RelyingParty } from './service.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };

/** The relying party is the host the page came from: every tenant's own host name works. */
const relyingParty = (request: FastifyRequest): RelyingParty => ({
  id: request.hostname,
  origin: `${request.protocol}://${request.host}`,
  name: request.tenant.title,
});

const actorOf = (request: FastifyRequest): PasskeyActor => ({
  user: authedUser(request).user,
  ip: request.ip,
  tenant: { id: request.tenant.id, title: request.tenant.title, public_url: request.tenant.public_url },
});

export function passkeyRoutes(passkeys: PasskeyService, sessions: SessionService, audit: AuditService) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['passkeys'];

    api.get(
      '/account/passkeys',
      {
        config: { rateLimit: RATE_LIMITS.read, beforeTwoFactorSetup: true },
        preHandler: requireUser,
        schema: { tags, summary: 'Your passkeys, with when each was last used', response: { 200: passkeyListAnswerSchema, ...errors } },
      },
      async (request) => ({ data: await passkeys.list(authedUser(request).user) }),
    );

    api.post(
      '/account/passkeys/options',
      {
        config: { rateLimit: RATE_LIMITS.write, beforeTwoFactorSetup: true },
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'Options for navigator.credentials.create() to add a passkey (a challenge valid once, for 5 minutes)',
          response: { 200: webauthnOptionsAnswerSchema, ...errors },
        },
      },
      async (request) => ({
        data: await passkeys.registrationOptions(authedUser(request).user, request.tenant.id, relyingParty(request)),
      }),
    );

    api.post(
      '/account/passkeys',
      {
        config: { rateLimit: RATE_LIMITS.write, beforeTwoFactorSetup: true },
        preHandler: requireUser,
        schema: {
          tags,
          summary: "Add a passkey from the browser's answer; a notice mail is sent",
          body: passkeyRegisterPayloadSchema,
          response: { 201: passkeyAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const data = await passkeys.register(actorOf(request), request.body, relyingParty(request));
        return reply.code(201).send({ data, message: translate(request.lang, 'passkeys.added') });
      },
    );

    api.patch(
      '/account/passkeys/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'Rename a passkey',
          params: idParamsSchema,
          body: passkeyRenamePayloadSchema,
          response: { 200: passkeyAnswerSchema, ...errors },
        },
      },
      async (request) => ({
        data: await passkeys.rename(authedUser(request).user, request.params.id, request.body.name),
        message: translate(request.lang, 'passkeys.renamed'),
      }),
    );

    api.delete(
      '/account/passkeys/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'Remove a passkey (needs the current password); a notice mail is sent',
          params: idParamsSchema,
          body: reauthPayloadSchema,
          response: { 200: messageAnswerSchema, ...errors },
        },
      },
      async (request) => {
        await passkeys.remove(actorOf(request), request.params.id, request.body.password);
        return { message: translate(request.lang, 'passkeys.removed') };
      },
    );

    api.post(
      '/login/passkey/options',
      {
        config: { rateLimit: RATE_LIMITS.auth },
        schema: {
          tags,
          summary: 'Options for navigator.credentials.get() to log in with a passkey (discoverable: no e-mail first)',
          response: { 200: webauthnOptionsAnswerSchema, 429: errorAnswerSchema },
        },
      },
      async (request) => ({ data: await passkeys.loginOptions(request.tenant.id, relyingParty(request)) }),
    );

    api.post(
      '/login/passkey',
      {
        config: { signsIn: true, rateLimit: RATE_LIMITS.auth },
        schema: {
          tags,
          summary: 'Log in with a passkey: both factors at once, so no TOTP follows',
          body: passkeyLoginPayloadSchema,
          response: { 200: sessionAnswerSchema, ...errors, 429: errorAnswerSchema },
        },
      },
      async (request, reply) => {
        const user = await passkeys.login(request.body, request.tenant.id, relyingParty(request));
        await audit.record({ action: 'auth.login.passkey', tenantId: request.tenant.id, userId: user.id, ip: request.ip });
        return { data: await issueSession(sessions, request, reply, user, { remember: false, twoFactorPending: false }) };
      },
    );

    api.post(
      '/login2fa/passkey/options',
      {
        config: { rateLimit: RATE_LIMITS.auth },
        schema: {
          tags,
          summary: "Second login step with a passkey instead of a TOTP code: options naming the user's passkeys",
          response: { 200: webauthnOptionsAnswerSchema, ...errors, 429: errorAnswerSchema },
        },
      },
      async (request) => ({
        data: await passkeys.secondFactorOptions(pendingLogin(request).user, request.tenant.id, relyingParty(request)),
      }),
    );

    api.post(
      '/login2fa/passkey',
      {
        config: { signsIn: true, rateLimit: RATE_LIMITS.auth },
        schema: {
          tags,
          summary: "Second login step with one of the pending user's passkeys",
          body: passkeyLoginPayloadSchema,
          response: { 200: sessionAnswerSchema, ...errors, 429: errorAnswerSchema },
        },
      },
      async (request, reply) => {
        const pending = pendingLogin(request);
        const user = await passkeys.login(request.body, request.tenant.id, relyingParty(request));
        if (user.id !== pending.user.id) throw new HttpError(401, 'passkeys.login_failed');
        await audit.record({
          action: 'auth.login.passkey',
          tenantId: request.tenant.id,
          userId: user.id,
          ip: request.ip,
          data: { second_factor: true },
        });
        const remember = pending.session.remember;
        return { data: await issueSession(sessions, request, reply, user, { remember, twoFactorPending: false }) };
      },
    );
  };
}
