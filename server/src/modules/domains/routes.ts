import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  domainExportQuerySchema,
  deleteConfirmQuerySchema,
  domainAnswerSchema,
  webSiteLogsAnswerSchema,
  domainCreatePayloadSchema,
  domainListAnswerSchema,
  domainListQuerySchema,
  domainOptionsAnswerSchema,
  menuAnswerSchema,
  domainUpdatePayloadSchema,
  errorAnswerSchema,
  idParamsSchema,
  messageAnswerSchema,
} from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { translate } from '../../i18n/messages.ts';
import type { ActorSource } from '../audit/service.ts';
import type { DomainEditor } from './editor.ts';
import type { DomainListing } from './listing.ts';
import type { DomainProof } from './proof.ts';
import type { DomainDirectory } from './service.ts';
import { domainMenu } from '../menu/service.ts';
import { userMay } from '../policy/guard.ts';
import { HttpError } from '../../http/errors.ts';
import { displayDomainName } from './names.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';
import { sendCsv } from '../../http/csv.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };

export function domainRoutes(
  listing: DomainListing,
  editor: DomainEditor,
  proof: DomainProof,
  directory: DomainDirectory,
  actors: ActorSource,
) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/host/domain',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags: ['domains'],
          summary:
            'Domains the user sees (own; tenant for host admins; all for super admins): search by name, sort by name or expiry, keyset pages',
          querystring: domainListQuerySchema,
          response: { 200: domainListAnswerSchema, ...errors },
        },
      },
      async (request) => listing.list(authedUser(request).user, request.query),
    );

    api.get(
      '/host/domain/export.csv',
      {
        config: { rateLimit: RATE_LIMITS.search },
        preHandler: requireUser,
        schema: {
          tags: ['domains'],
          summary: 'The domains the user sees as CSV (at most 10,000), with the same search and order as the list',
          querystring: domainExportQuerySchema,
          response: { 200: z.string(), ...errors },
        },
      },
      async (request, reply) => sendCsv(reply, await listing.exportCsv(authedUser(request).user, request.query), 'domains.csv'),
    );

    api.post(
      '/host/domain',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['domains'],
          summary: 'Add a domain (IDN accepted, stored in punycode) with its default DNS zone; admins choose the owner and expiry',
          body: domainCreatePayloadSchema,
          response: { 201: domainAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const domain = await editor.create(await actors.actor(request), request.body);
        const message = translate(request.lang, domain.proof ? 'domain.created_unproven' : 'domain.created', { name: domain.text });
        return reply.code(201).send({ data: domain, message });
      },
    );

    api.get(
      '/host/domain/:id',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags: ['domains'],
          summary: 'One domain with its settings, notes and counts',
          params: idParamsSchema,
          response: { 200: domainAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await editor.detail(authedUser(request).user, request.params.id) }),
    );

    api.get(
      '/host/domain/:id/logs',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags: ['domains'],
          summary: "The last 100 lines of the website's access and error logs, newest first",
          params: idParamsSchema,
          response: { 200: webSiteLogsAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await editor.logs(authedUser(request).user, request.params.id) }),
    );

    api.patch(
      '/host/domain/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['domains'],
          summary: 'Change settings and notes; owner and expiry (admins only)',
          params: idParamsSchema,
          body: domainUpdatePayloadSchema,
          response: { 200: domainAnswerSchema, ...errors },
        },
      },
      async (request) => {
        // Which server serves a site is the platform's choice (policy: servers.manage).
        if (request.body.server_id !== undefined && !userMay(authedUser(request).user, request.tenant, 'servers.manage'))
          throw new HttpError(403, 'http.forbidden');
        const domain = await editor.update(await actors.actor(request), request.params.id, request.body);
        return { data: domain, message: translate(request.lang, 'domain.updated', { name: domain.text }) };
      },
    );

    api.post(
      '/host/domain/:id/verify',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['domains'],
          summary: "Check the TXT record that proves a customer's own domain is theirs; once found, its DNS and mail are served",
          params: idParamsSchema,
          response: { 200: domainAnswerSchema, 409: errorAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const { domain } = await proof.verify(await actors.actor(request), request.params.id);
        return { data: domain, message: translate(request.lang, 'domain.verified', { name: domain.text }) };
      },
    );

    api.delete(
      '/host/domain/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['domains'],
          summary: 'Delete a domain with its users and DNS records; `confirm` repeats the domain name',
          params: idParamsSchema,
          querystring: deleteConfirmQuerySchema,
          response: { 200: messageAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const name = await editor.remove(await actors.actor(request), request.params.id, request.query.confirm);
        return { message: translate(request.lang, 'domain.deleted', { name: displayDomainName(name) }) };
      },
    );

    api.get(
      '/domains/live',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags: ['shell'],
          summary: 'The domains of the selector: only those with no expiry or an expiry in the future',
          response: { 200: domainOptionsAnswerSchema },
        },
      },
      async (request) => ({ data: await directory.liveOptions(authedUser(request).user) }),
    );

    api.get(
      '/host/domain/:id/menu',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags: ['shell'],
          summary: "A domain's own menu",
          params: idParamsSchema,
          response: { 200: menuAnswerSchema, 404: errorAnswerSchema },
        },
      },
      async (request) => {
        const domain = await directory.visible(authedUser(request).user, request.params.id);
        return { data: domainMenu(domain.id) };
      },
    );
  };
}
