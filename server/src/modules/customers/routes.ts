import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  customerAnswerSchema,
  customerCreatePayloadSchema,
  customerListAnswerSchema,
  customerListQuerySchema,
  customerUpdatePayloadSchema,
  deleteConfirmQuerySchema,
  errorAnswerSchema,
  idParamsSchema,
  messageAnswerSchema,
} from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { translate, type MessageKey } from '../../i18n/messages.ts';
import type { ActorSource } from '../audit/service.ts';
import type { CustomerService } from './service.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };

export function customerRoutes(customers: CustomerService, actors: ActorSource) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['customers'];

    api.get(
      '/system/customers',
      {
        preHandler: requireUser,
        schema: {
          tags,
          summary: "Customers (host admins: their tenant's; super admins: all), by e-mail, keyset pages",
          querystring: customerListQuerySchema,
          response: { 200: customerListAnswerSchema, ...errors },
        },
      },
      async (request) => customers.list(authedUser(request).user, request.query),
    );

    api.post(
      '/system/customers',
      {
        preHandler: requireUser,
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
        preHandler: requireUser,
        schema: { tags, summary: 'One customer', params: idParamsSchema, response: { 200: customerAnswerSchema, ...errors } },
      },
      async (request) => ({ data: await customers.get(authedUser(request).user, request.params.id) }),
    );

    api.patch(
      '/system/customers/:id',
      {
        preHandler: requireUser,
        schema: {
          tags,
          summary: 'Change contact data (e-mail, names, phones, language)',
          params: idParamsSchema,
          body: customerUpdatePayloadSchema,
          response: { 200: customerAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const customer = await customers.update(await actors.actor(request), request.params.id, request.body);
        return { data: customer, message: translate(request.lang, 'customer.updated', { email: customer.email }) };
      },
    );

    api.delete(
      '/system/customers/:id',
      {
        preHandler: requireUser,
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

    const actions: {
      path: string;
      summary: string;
      message: MessageKey;
      run: (actor: Awaited<ReturnType<ActorSource['actor']>>, id: number) => ReturnType<CustomerService['get']>;
    }[] = [
      {
        path: 'lock',
        summary: 'Lock: no login, every session ends',
        message: 'customer.locked',
        run: (actor, id) => customers.setLocked(actor, id, true),
      },
      { path: 'unlock', summary: 'Unlock', message: 'customer.unlocked', run: (actor, id) => customers.setLocked(actor, id, false) },
      {
        path: 'reset-2fa',
        summary: 'Turn two-factor authentication off (lost authenticator); the customer is told by e-mail',
        message: 'customer.2fa_reset',
        run: (actor, id) => customers.resetTwoFactor(actor, id),
      },
    ];
    for (const action of actions) {
      api.post(
        `/system/customers/:id/${action.path}`,
        {
          preHandler: requireUser,
          schema: { tags, summary: action.summary, params: idParamsSchema, response: { 200: customerAnswerSchema, ...errors } },
        },
        async (request) => {
          const customer = await action.run(await actors.actor(request), request.params.id);
          return { data: customer, message: translate(request.lang, action.message, { email: customer.email }) };
        },
      );
    }
  };
}
