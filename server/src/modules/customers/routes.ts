import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  customerExportQuerySchema,
  customerAnswerSchema,
  customerCreatePayloadSchema,
  customerListAnswerSchema,
  customerListQuerySchema,
  customerUpdatePayloadSchema,
  deleteConfirmQuerySchema,
  errorAnswerSchema,
  idParamsSchema,
  impersonationAnswerSchema,
  messageAnswerSchema,
} from '@berth/contracts';
import { HttpError } from '../../http/errors.ts';
import { authedUser } from '../../http/context.ts';
import { requireAbility } from '../policy/guard.ts';
import { translate } from '../../i18n/messages.ts';
import type { ActorSource } from '../audit/service.ts';
import type { ImpersonationService } from '../impersonation/service.ts';
import { assertAdmin } from '../tenants/scope.ts';
import type { CustomerService } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';
import { sendCsv } from '../../http/csv.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };

/** /system/customers: a host admin's customers, and logging in as one of them. */
export function customerRoutes(customers: CustomerService, impersonation: ImpersonationService, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['customers'];

    api.get(
      '/system/customers',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('customers.manage'),
        schema: {
          tags,
          summary: "Customers (host admins: their tenant's; super admins: all), by e-mail, keyset pages",
          querystring: customerListQuerySchema,
          response: { 200: customerListAnswerSchema, ...errors },
        },
      },
      async (request) => customers.list(authedUser(request).user, request.query),
    );

    api.get(
      '/system/customers/export.csv',
      {
        config: { rateLimit: RATE_LIMITS.search },
        preHandler: requireAbility('customers.manage'),
        schema: {
          tags,
          summary: 'The customers as CSV (at most 10,000), with the same filters as the list',
          querystring: customerExportQuerySchema,
          response: { 200: z.string(), ...errors },
        },
      },
      async (request, reply) => sendCsv(reply, await customers.exportCsv(authedUser(request).user, request.query), 'customers.csv'),
    );

    api.post(
      '/system/customers',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('customers.manage'),
        schema: {
          tags,
          summary: 'Create a customer with an initial password (password policy applies)',
          body: customerCreatePayloadSchema,
          response: { 201: customerAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const customer = await customers.create(await actors.actor(request), request.body);
        return reply.code(201).send({ data: customer, message: translate(request.lang, 'customer.created', { email: customer.email }) });
      },
    );

    api.get(
      '/system/customers/:id',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('customers.manage'),
        schema: { tags, summary: 'One customer', params: idParamsSchema, response: { 200: customerAnswerSchema, ...errors } },
      },
      async (request) => ({ data: await customers.get(authedUser(request).user, request.params.id) }),
    );

    api.patch(
      '/system/customers/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('customers.manage'),
        schema: {
          tags,
          summary: 'Change contact data (e-mail, names, phones, language)',
          params: idParamsSchema,
          body: customerUpdatePayloadSchema,
          response: { 200: customerAnswerSchema, ...errors },
        },
      },
      async (request) => {
        // The e-mail is where password resets go: a token changing it would take the account over.
        if (request.body.email !== undefined && authedUser(request).token) throw new HttpError(403, 'auth.token_not_allowed');
        const customer = await customers.update(await actors.actor(request), request.params.id, request.body);
        return { data: customer, message: translate(request.lang, 'customer.updated', { email: customer.email }) };
      },
    );

    api.delete(
      '/system/customers/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('customers.manage'),
        schema: {
          tags,
          summary: 'Delete a customer with all their domains; `confirm` repeats the e-mail address',
          params: idParamsSchema,
          querystring: deleteConfirmQuerySchema,
          response: { 200: messageAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const email = await customers.remove(await actors.actor(request), request.params.id, request.query.confirm);
        return { message: translate(request.lang, 'customer.deleted', { email }) };
      },
    );

    api.post(
      '/system/customers/:id/lock',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('customers.manage'),
        schema: {
          tags,
          summary: 'Lock: no login, every session ends',
          params: idParamsSchema,
          response: { 200: customerAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const customer = await customers.setLocked(await actors.actor(request), request.params.id, true);
        return { data: customer, message: translate(request.lang, 'customer.locked', { email: customer.email }) };
      },
    );

    api.post(
      '/system/customers/:id/unlock',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('customers.manage'),
        schema: { tags, summary: 'Unlock', params: idParamsSchema, response: { 200: customerAnswerSchema, ...errors } },
      },
      async (request) => {
        const customer = await customers.setLocked(await actors.actor(request), request.params.id, false);
        return { data: customer, message: translate(request.lang, 'customer.unlocked', { email: customer.email }) };
      },
    );

    api.post(
      '/system/customers/:id/reset-2fa',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('customers.manage'),
        schema: {
          tags,
          summary: 'Turn two-factor authentication off (lost authenticator); the customer is told by e-mail',
          params: idParamsSchema,
          response: { 200: customerAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const customer = await customers.resetTwoFactor(await actors.actor(request), request.params.id);
        return { data: customer, message: translate(request.lang, 'customer.2fa_reset', { email: customer.email }) };
      },
    );

    api.post(
      '/system/customers/:id/impersonate',
      {
        config: { signsIn: true, rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('customers.manage'),
        schema: {
          tags,
          summary: "Log in as a customer (host admins: their tenant's; super admins: any); the answer is the customer's session",
          params: idParamsSchema,
          response: { 200: impersonationAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        assertAdmin(authedUser(request).user);
        const data = await impersonation.start(request, reply, request.params.id);
        return { data, message: translate(request.lang, 'impersonation.started') };
      },
    );
  };
}
