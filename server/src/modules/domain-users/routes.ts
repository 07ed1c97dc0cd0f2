import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  autoreplyAnswerSchema,
  autoreplyPayloadSchema,
  domainUserAnswerSchema,
  mailLogAnswerSchema,
  domainUserCreatePayloadSchema,
  domainUserListAnswerSchema,
  domainUserPasswordPayloadSchema,
  domainUserPasswordResetPayloadSchema,
  domainUserUpdatePayloadSchema,
  errorAnswerSchema,
  idParamsSchema,
  idSchema,
  messageAnswerSchema,
  pageQuerySchema,
} from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { translate } from '../../i18n/messages.ts';
import type { ActorSource } from '../audit/service.ts';
import type { DomainUserAccounts } from './accounts.ts';
import type { MailboxAutoreplies } from './autoreply.ts';
import type { DomainUserPasswordService } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };
const accountParams = z.object({ id: idSchema, userId: idSchema });

export function domainUserAccountRoutes(accounts: DomainUserAccounts, autoreplies: MailboxAutoreplies, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['domain users'];

    api.get(
      '/host/domain/:id/users',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags,
          summary: "A domain's mail/FTP accounts, by uid",
          params: idParamsSchema,
          querystring: pageQuerySchema,
          response: { 200: domainUserListAnswerSchema, ...errors },
        },
      },
      async (request) => accounts.list(authedUser(request).user, request.params.id, request.query),
    );

    api.post(
      '/host/domain/:id/users',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'Add an account: uid (local part @ domain), password (argon2id, password policy), quota, enabled',
          params: idParamsSchema,
          body: domainUserCreatePayloadSchema,
          response: { 201: domainUserAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const account = await accounts.create(await actors.actor(request), request.params.id, request.body);
        return reply.code(201).send({ data: account, message: translate(request.lang, 'domain_user.created', { uid: account.uid }) });
      },
    );

    api.get(
      '/host/domain/:id/users/:userId',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: { tags, summary: 'One account', params: accountParams, response: { 200: domainUserAnswerSchema, ...errors } },
      },
      async (request) => ({ data: await accounts.get(authedUser(request).user, request.params.id, request.params.userId) }),
    );

    api.patch(
      '/host/domain/:id/users/:userId',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'Change the quota or the spam filter, or enable/disable the account',
          params: accountParams,
          body: domainUserUpdatePayloadSchema,
          response: { 200: domainUserAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const account = await accounts.update(await actors.actor(request), request.params.id, request.params.userId, request.body);
        return { data: account, message: translate(request.lang, 'domain_user.updated', { uid: account.uid }) };
      },
    );

    api.get(
      '/host/domain/:id/users/:userId/mail-log',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'What the mailbox received and sent in the last 7 days, with the delivery status of each',
          params: accountParams,
          response: { 200: mailLogAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await accounts.mailLog(authedUser(request).user, request.params.id, request.params.userId) }),
    );

    api.post(
      '/host/domain/:id/users/:userId/password',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: "Set a new password for the account (its owner or an admin; the account's user uses /change-password)",
          params: accountParams,
          body: domainUserPasswordResetPayloadSchema,
          response: { 200: domainUserAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const account = await accounts.resetPassword(await actors.actor(request), request.params.id, request.params.userId, request.body);
        return { data: account, message: translate(request.lang, 'domain_user.password_changed', { uid: account.uid }) };
      },
    );

    api.delete(
      '/host/domain/:id/users/:userId',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: { tags, summary: 'Delete the account', params: accountParams, response: { 200: messageAnswerSchema, ...errors } },
      },
      async (request) => {
        const uid = await accounts.remove(await actors.actor(request), request.params.id, request.params.userId);
        return { message: translate(request.lang, 'domain_user.deleted', { uid }) };
      },
    );

    api.get(
      '/host/domain/:id/users/:userId/autoreply',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags,
          summary: "The mailbox's autoresponder",
          params: accountParams,
          response: { 200: autoreplyAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await autoreplies.get(authedUser(request).user, request.params.id, request.params.userId) }),
    );

    api.put(
      '/host/domain/:id/users/:userId/autoreply',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'Set the autoresponder: on or off, subject, text, one reply per sender per interval_days, optional first and last day',
          params: accountParams,
          body: autoreplyPayloadSchema,
          response: { 200: autoreplyAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const saved = await autoreplies.save(await actors.actor(request), request.params.id, request.params.userId, request.body);
        const message = saved.autoreply.enabled ? 'autoreply.saved_on' : 'autoreply.saved_off';
        return { data: saved.autoreply, message: translate(request.lang, message, { uid: saved.uid }) };
      },
    );
  };
}

export function domainUserPasswordRoutes(service: DomainUserPasswordService) {
  return async (app: FastifyInstance): Promise<void> => {
    app.withTypeProvider<ZodTypeProvider>().patch(
      '/host/domain-user/change-password',
      {
        config: { rateLimit: RATE_LIMITS.auth },
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
