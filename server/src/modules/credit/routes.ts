import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  creditAdjustmentAnswerSchema,
  creditAdjustmentPayloadSchema,
  creditAnswerSchema,
  creditExportQuerySchema,
  creditQuerySchema,
  creditUserParamsSchema,
  errorAnswerSchema,
  topUpAnswerSchema,
  topUpPayloadSchema,
} from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { requireAbility } from '../policy/guard.ts';
import { translate } from '../../i18n/messages.ts';
import type { ActorSource } from '../audit/service.ts';
import type { CreditService } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';
import { sendCsv } from '../../http/csv.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };

export function creditRoutes(credit: CreditService, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/credit',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireUser,
        schema: {
          tags: ['credit'],
          summary: "The user's credit balance, top-up limits and ledger (newest first; filter by date range and type; keyset pages)",
          querystring: creditQuerySchema,
          response: { 200: creditAnswerSchema, ...errors },
        },
      },
      async (request) => credit.view(authedUser(request).user, request.query, request.lang),
    );

    api.get(
      '/credit/export.csv',
      {
        config: { rateLimit: RATE_LIMITS.search },
        preHandler: requireUser,
        schema: {
          tags: ['credit'],
          summary: 'The ledger as CSV, with the same filters',
          querystring: creditExportQuerySchema,
          response: { 200: z.string(), ...errors },
        },
      },
      async (request, reply) => sendCsv(reply, await credit.exportCsv(authedUser(request).user, request.query, request.lang), 'credit.csv'),
    );

    api.get(
      '/system/credit/:userId',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('credit.administer'),
        schema: {
          tags: ['credit'],
          summary:
            "Admins: a user's credit balance and ledger (super admins: any user; host admins: their tenant's), filters and keyset pages as /credit",
          params: creditUserParamsSchema,
          querystring: creditQuerySchema,
          response: { 200: creditAnswerSchema, ...errors },
        },
      },
      async (request) => credit.viewFor(authedUser(request).user, request.params.userId, request.query, request.lang),
    );

    api.get(
      '/system/credit/:userId/export.csv',
      {
        config: { rateLimit: RATE_LIMITS.search },
        preHandler: requireAbility('credit.administer'),
        schema: {
          tags: ['credit'],
          summary: "Admins: a user's ledger as CSV, with the same filters",
          params: creditUserParamsSchema,
          querystring: creditExportQuerySchema,
          response: { 200: z.string(), ...errors },
        },
      },
      async (request, reply) =>
        sendCsv(
          reply,
          await credit.exportCsvFor(authedUser(request).user, request.params.userId, request.query, request.lang),
          `credit-${request.params.userId}.csv`,
        ),
    );

    api.post(
      '/credit/top-up',
      {
        config: { rateLimit: RATE_LIMITS.checkout },
        preHandler: requireUser,
        schema: {
          tags: ['credit'],
          summary: 'Top up credit: issues a credit invoice and starts its payment; the credit arrives when the payment is confirmed',
          body: topUpPayloadSchema,
          response: { 201: topUpAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const invoice = await credit.topUp(await actors.actor(request), request.body, request.lang);
        return reply
          .code(201)
          .send({ data: { invoice }, message: translate(request.lang, 'credit.top_up_created', { number: invoice.number }) });
      },
    );

    api.post(
      '/system/credit/adjustments',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('credit.administer'),
        schema: {
          tags: ['credit'],
          summary: 'Admins: credit (positive) or debit (negative) a user of their tenant; never below zero',
          body: creditAdjustmentPayloadSchema,
          response: { 201: creditAdjustmentAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const data = await credit.adjust(await actors.actor(request), request.body, request.lang);
        return reply.code(201).send({ data, message: translate(request.lang, 'credit.adjusted', { balance: data.balance.formatted }) });
      },
    );
  };
}
