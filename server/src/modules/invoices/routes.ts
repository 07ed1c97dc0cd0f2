import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminInvoiceListQuerySchema,
  errorAnswerSchema,
  idParamsSchema,
  invoiceAnswerSchema,
  invoiceListAnswerSchema,
  invoiceListQuerySchema,
} from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { shopTenantOf } from '../shop/tenant.ts';
import type { InvoiceReader } from './service.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };

export function invoiceRoutes(invoices: InvoiceReader) {
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/account/invoices',
      {
        preHandler: requireUser,
        schema: {
          tags: ['invoices'],
          summary: "The user's invoices, newest first (keyset pages)",
          querystring: invoiceListQuerySchema,
          response: { 200: invoiceListAnswerSchema, ...errors },
        },
      },
      async (request) => invoices.listForUser(authedUser(request).user, request.query, request.lang),
    );

    api.get(
      '/account/invoices/:id',
      {
        preHandler: requireUser,
        schema: {
          tags: ['invoices'],
          summary: "One of the user's invoices: lines, totals net/VAT/gross, status, payment reference, how to pay while unpaid",
          params: idParamsSchema,
          response: { 200: invoiceAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await invoices.getInvoiceForUser(authedUser(request).user, request.params.id, request.lang) }),
    );

    api.get(
      '/system/invoices',
      {
        preHandler: requireUser,
        schema: {
          tags: ['invoices'],
          summary: "Admins: the tenant's invoices (host admins their own tenant; super admins the tenant of the host they use)",
          querystring: adminInvoiceListQuerySchema,
          response: { 200: invoiceListAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const { user } = authedUser(request);
        return invoices.listForAdmin(user, shopTenantOf(user, request.tenant.id), request.query, request.lang);
      },
    );

    api.get(
      '/system/invoices/:id',
      {
        preHandler: requireUser,
        schema: {
          tags: ['invoices'],
          summary: 'Admins: one invoice of a tenant they administer',
          params: idParamsSchema,
          response: { 200: invoiceAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await invoices.getInvoiceForAdmin(authedUser(request).user, request.params.id, request.lang) }),
    );
  };
}
