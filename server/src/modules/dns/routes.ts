import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  dnsRecordAnswerSchema,
  dnsRecordPayloadSchema,
  dnsRecordUpdatePayloadSchema,
  dnsZoneAnswerSchema,
  dnssecAnswerSchema,
  dkimAnswerSchema,
  dnsImportAnswerSchema,
  dnsImportPayloadSchema,
  errorAnswerSchema,
  idParamsSchema,
  idSchema,
  messageAnswerSchema,
  soaSchema,
} from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { translate } from '../../i18n/messages.ts';
import type { ActorSource } from '../audit/service.ts';
import type { DnsService } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';
import { toZoneFile } from './zone-file.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };
const recordParams = z.object({ id: idSchema, recordId: idSchema });
const deletedAnswer = messageAnswerSchema.extend({ soa: soaSchema });

export function dnsRoutes(dns: DnsService, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['dns'];

    api.get(
      '/host/domain/:id/dns',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags,
          summary: "A domain's zone: SOA and records",
          params: idParamsSchema,
          response: { 200: dnsZoneAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await dns.zone(authedUser(request).user, request.params.id) }),
    );

    api.get(
      '/host/domain/:id/dns/export',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags,
          summary: "The domain's zone as a BIND master file (text/dns), records off the air as comments",
          params: idParamsSchema,
          response: { 200: z.string(), ...errors },
        },
      },
      async (request, reply) => {
        const zone = await dns.zone(authedUser(request).user, request.params.id);
        return reply
          .header('content-type', 'text/dns; charset=utf-8')
          .header('content-disposition', `attachment; filename="${zone.zone}.zone"`)
          .send(toZoneFile(zone));
      },
    );

    api.post(
      '/host/domain/:id/dns',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'Add a record (A, AAAA, CNAME, MX, TXT, SRV, CAA, NS), checked per type; bumps the SOA serial',
          params: idParamsSchema,
          body: dnsRecordPayloadSchema,
          response: { 201: dnsRecordAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const answer = await dns.create(await actors.actor(request), request.params.id, request.body);
        return reply.code(201).send({ ...answer, message: translate(request.lang, 'dns.record_saved') });
      },
    );

    api.patch(
      '/host/domain/:id/dns/:recordId',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'Change a record; bumps the SOA serial',
          params: recordParams,
          body: dnsRecordUpdatePayloadSchema,
          response: { 200: dnsRecordAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const answer = await dns.update(await actors.actor(request), request.params.id, request.params.recordId, request.body);
        return { ...answer, message: translate(request.lang, 'dns.record_saved') };
      },
    );

    api.delete(
      '/host/domain/:id/dns/:recordId',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'Delete a record; bumps the SOA serial',
          params: recordParams,
          response: { 200: deletedAnswer, ...errors },
        },
      },
      async (request) => {
        const { soa } = await dns.remove(await actors.actor(request), request.params.id, request.params.recordId);
        return { soa, message: translate(request.lang, 'dns.record_deleted') };
      },
    );

    api.post(
      '/host/domain/:id/dns/import',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary:
            'Add the records of a BIND master file to the zone, all or none: unreadable lines are named per line; records already there, the SOA and apex NS are left out',
          params: idParamsSchema,
          body: dnsImportPayloadSchema,
          response: { 200: dnsImportAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const answer = await dns.importZone(await actors.actor(request), request.params.id, request.body.zone_file);
        return { ...answer, message: translate(request.lang, 'dns.imported', answer.data) };
      },
    );

    api.post(
      '/host/domain/:id/dns/dnssec',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary:
            'Sign the zone with DNSSEC (a new ECDSA P-256 key, signed online by the name servers); answers the DS record for the registrar',
          params: idParamsSchema,
          response: { 200: dnssecAnswerSchema, ...errors },
        },
      },
      async (request) => ({
        ...(await dns.sign(await actors.actor(request), request.params.id)),
        message: translate(request.lang, 'dns.dnssec_signed'),
      }),
    );

    api.delete(
      '/host/domain/:id/dns/dnssec',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'Stop signing the zone: its keys are removed (remove the DS record at the registrar first)',
          params: idParamsSchema,
          response: { 200: dnssecAnswerSchema, ...errors },
        },
      },
      async (request) => ({
        ...(await dns.unsign(await actors.actor(request), request.params.id)),
        message: translate(request.lang, 'dns.dnssec_unsigned'),
      }),
    );

    api.post(
      '/host/domain/:id/dns/dkim',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary: "Make the domain's DKIM key (2048-bit RSA) if it has none and publish its TXT record; answers the mail records' checks",
          params: idParamsSchema,
          response: { 200: dkimAnswerSchema, ...errors },
        },
      },
      async (request) => ({
        ...(await dns.publishDkim(await actors.actor(request), request.params.id)),
        message: translate(request.lang, 'dns.dkim_published'),
      }),
    );

    api.post(
      '/host/domain/:id/dns/dkim/rotate',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags,
          summary:
            'Rotate the DKIM key: a new key is published beside the signing one, signs once its record has been out for its TTL, and the old record goes a week later; 409 while a rotation is under way',
          params: idParamsSchema,
          response: { 200: dkimAnswerSchema, ...errors },
        },
      },
      async (request) => ({
        ...(await dns.rotateDkim(await actors.actor(request), request.params.id)),
        message: translate(request.lang, 'dns.dkim_rotation_started'),
      }),
    );
  };
}
