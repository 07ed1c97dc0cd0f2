import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  adminInvoiceListQuerySchema,
  eInvoiceQuerySchema,
  errorAnswerSchema,
  type EInvoiceFormat,
  idParamsSchema,
  invoiceAnswerSchema,
  invoiceListAnswerSchema,
  invoiceListQuerySchema,
  invoicePayPayloadSchema,
  markPaidAnswerSchema,
  markPaidPayloadSchema,
} from '@berth/contracts';
import { authedUser, requireUser } from '../../http/context.ts';
import { requireAbility } from '../policy/guard.ts';
import { shopTenantOf } from '../shop/tenant.ts';
import { translate } from '../../i18n/messages.ts';
import type { ActorSource } from '../audit/service.ts';
import type { PaymentConfirmation } from '../payments/confirmation.ts';
import type { InvoicePdfs } from '../payments/invoice-pdf.ts';
import type { InvoiceReader } from './service.ts';
import type { Billing } from '../billing/service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };

const sendPdf = (reply: FastifyReply, file: { pdf: Buffer; number: string }) =>
  reply
    .type('application/pdf')
    .header('content-disposition', `attachment; filename="invoice-${file.number.replace(/[^\w.-]/g, '_')}.pdf"`)
    .header('cache-control', 'private, no-store')
    .send(file.pdf);

const sendXml = (reply: FastifyReply, file: { xml: string; number: string }, format: EInvoiceFormat) =>
  reply
    .type('application/xml; charset=utf-8')
    .header('content-disposition', `attachment; filename="invoice-${file.number.replace(/[^\w.-]/g, '_')}-${format}.xml"`)
    .header('cache-control', 'private, no-store')
    .send(file.xml);

const xmlErrors = { ...errors, 409: errorAnswerSchema };

/** /account/invoices and /system/invoices: reading invoices, their PDFs, and confirming one paid by hand. */
export function invoiceRoutes(deps: {
  invoices: InvoiceReader;
  pdfs: InvoicePdfs;
  confirmation: PaymentConfirmation;
  actors: ActorSource;
  billing: Pick<Billing, 'payFromCredit'>;
}) {
  const { invoices, pdfs, confirmation, actors, billing } = deps;
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();

    api.get(
      '/account/invoices',
      {
        config: { rateLimit: RATE_LIMITS.read },
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
        config: { rateLimit: RATE_LIMITS.read },
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
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('invoices.manage'),
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
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('invoices.manage'),
        schema: {
          tags: ['invoices'],
          summary: 'Admins: one invoice of a tenant they administer',
          params: idParamsSchema,
          response: { 200: invoiceAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await invoices.getInvoiceForAdmin(authedUser(request).user, request.params.id, request.lang) }),
    );

    api.get(
      '/account/invoices/:id/pdf',
      {
        config: { rateLimit: RATE_LIMITS.search },
        preHandler: requireUser,
        schema: { tags: ['invoices'], summary: 'One of your invoices as PDF', params: idParamsSchema, response: errors },
      },
      async (request, reply) => sendPdf(reply, await pdfs.forBuyer(authedUser(request).user, request.params.id, request.lang)),
    );

    api.get(
      '/system/invoices/:id/pdf',
      {
        config: { rateLimit: RATE_LIMITS.search },
        preHandler: requireAbility('invoices.manage'),
        schema: {
          tags: ['invoices'],
          summary: 'An invoice of your tenant as PDF (host admins; super admins any)',
          params: idParamsSchema,
          response: errors,
        },
      },
      async (request, reply) => sendPdf(reply, await pdfs.forAdmin(authedUser(request).user, request.params.id, request.lang)),
    );

    api.get(
      '/account/invoices/:id/e-invoice',
      {
        config: { rateLimit: RATE_LIMITS.search },
        preHandler: requireUser,
        schema: {
          tags: ['invoices'],
          summary: 'One of your invoices as an EN 16931 e-invoice (UBL, XRechnung UBL or CII XML)',
          params: idParamsSchema,
          querystring: eInvoiceQuerySchema,
          response: xmlErrors,
        },
      },
      async (request, reply) =>
        sendXml(
          reply,
          await pdfs.eInvoiceForBuyer(authedUser(request).user, request.params.id, request.query.format, request.lang),
          request.query.format,
        ),
    );

    api.get(
      '/system/invoices/:id/e-invoice',
      {
        config: { rateLimit: RATE_LIMITS.search },
        preHandler: requireAbility('invoices.manage'),
        schema: {
          tags: ['invoices'],
          summary: 'An invoice of your tenant as an EN 16931 e-invoice (host admins; super admins any)',
          params: idParamsSchema,
          querystring: eInvoiceQuerySchema,
          response: xmlErrors,
        },
      },
      async (request, reply) =>
        sendXml(
          reply,
          await pdfs.eInvoiceForAdmin(authedUser(request).user, request.params.id, request.query.format, request.lang),
          request.query.format,
        ),
    );

    api.post(
      '/account/invoices/:id/pay',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireUser,
        schema: {
          tags: ['invoices'],
          summary: "Pay one of the user's unpaid invoices from their credit (a renewal; ends a suspension it was the reason for)",
          params: idParamsSchema,
          body: invoicePayPayloadSchema,
          response: { 200: invoiceAnswerSchema, 409: errorAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const actor = await actors.actor(request);
        const paid = await billing.payFromCredit(actor.user, request.params.id);
        return {
          data: await invoices.getInvoiceForUser(actor.user, paid.id, request.lang),
          message: translate(request.lang, 'invoice.paid_notice', { number: paid.number }),
        };
      },
    );

    api.post(
      '/system/invoices/:id/mark-paid',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('invoices.manage'),
        // The body is optional: a bare POST confirms without a bank reference.
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          tags: ['invoices'],
          summary: 'Confirm an unpaid invoice as paid (money received by transfer); a second call changes nothing',
          params: idParamsSchema,
          body: markPaidPayloadSchema,
          response: { 200: markPaidAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const result = await confirmation.markPaid(await actors.actor(request), request.params.id, request.body.reference);
        const key = result.settled ? 'payments.marked_paid' : 'payments.already_paid';
        return {
          data: { invoice_id: result.invoice.id, settled: result.settled, already_paid: result.alreadyPaid },
          message: translate(request.lang, key, { number: result.invoice.number }),
        };
      },
    );
  };
}
