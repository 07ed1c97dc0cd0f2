import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorAnswerSchema,
  idParamsSchema,
  idSchema,
  pageQuerySchema,
  TENANT_LOGO_KINDS,
  tenantAdminParamsSchema,
  tenantAdminPayloadSchema,
  tenantBankAccountAnswerSchema,
  tenantBankAccountPayloadSchema,
  sellerDetailsAnswerSchema,
  sellerDetailsPayloadSchema,
  tenantAnswerSchema,
  tenantCreatePayloadSchema,
  tenantDetailAnswerSchema,
  tenantListAnswerSchema,
  tenantUpdatePayloadSchema,
} from '@berth/contracts';
import { authedUser } from '../../http/context.ts';
import { requireAbility } from '../policy/guard.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { ActorSource } from '../audit/service.ts';
import type { TenantBankAccounts } from '../payments/bank-transfer.ts';
import type { TenantSellerDetails } from '../payments/seller-details.ts';
import type { TenantAdministration } from './admin.ts';
import { LOGO_MAX_BYTES } from './logo.ts';
import { toPublicTenant } from './service.ts';
import { RATE_LIMITS } from '../../http/rate-limits.ts';

const errors = { 401: errorAnswerSchema, 403: errorAnswerSchema, 404: errorAnswerSchema, 422: errorAnswerSchema };
const logoParams = z.object({ id: idSchema, kind: z.enum(TENANT_LOGO_KINDS) });

const sendImage = (reply: FastifyReply, logo: { image: Buffer; content_type: string }, cacheControl: string) =>
  reply.header('cache-control', cacheControl).type(logo.content_type).send(logo.image);

export async function tenantRoutes(app: FastifyInstance): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/tenant',
    {
      config: { rateLimit: RATE_LIMITS.public },
      schema: {
        tags: ['tenants'],
        summary: "The tenant of the request's host name (public: the login screen needs it)",
        response: { 200: tenantAnswerSchema },
      },
    },
    async (request) => ({ data: toPublicTenant(request.tenant) }),
  );
}

/** GET /api/tenant/logo/{kind}: the logo of the request's tenant, public (the login screen shows it). */
export function tenantLogoRoute(admin: TenantAdministration) {
  return async (app: FastifyInstance): Promise<void> => {
    app.withTypeProvider<ZodTypeProvider>().get(
      '/tenant/logo/:kind',
      {
        config: { rateLimit: RATE_LIMITS.public },
        schema: {
          tags: ['tenants'],
          summary: "The tenant's logo (admin_logo or admin_logo_footer); with ?v= (as config links it) cached for a year",
          params: z.object({ kind: z.enum(TENANT_LOGO_KINDS) }),
          querystring: z.object({ v: z.string().max(20).optional() }),
          response: { 404: errorAnswerSchema },
        },
      },
      async (request, reply) => {
        const logo = await admin.publicLogo(request.tenant.id, request.params.kind);
        if (!logo) throw new HttpError(404, 'http.not_found');
        // A versioned URL never changes content; an unversioned one may change with the next upload.
        return sendImage(reply, logo, request.query.v ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      },
    );
  };
}

/** /system/tenants: super admins manage tenants; host admins their own tenant's bank account. */
export function tenantAdminRoutes(
  admin: TenantAdministration,
  payments: { bankAccounts: TenantBankAccounts; sellerDetails: TenantSellerDetails },
  actors: ActorSource,
) {
  const { bankAccounts, sellerDetails } = payments;
  return async (app: FastifyInstance): Promise<void> => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['tenants'];

    api.get(
      '/system/tenants',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('tenants.manage'),
        schema: {
          tags,
          summary: 'Tenants (super admins)',
          querystring: pageQuerySchema,
          response: { 200: tenantListAnswerSchema, ...errors },
        },
      },
      async (request) => admin.list(authedUser(request).user, request.query),
    );

    api.post(
      '/system/tenants',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('tenants.manage'),
        schema: {
          tags,
          summary: 'Create a tenant: title, host names, host_purchases, name servers, default language',
          body: tenantCreatePayloadSchema,
          response: { 201: tenantDetailAnswerSchema, ...errors },
        },
      },
      async (request, reply) => {
        const tenant = await admin.create(await actors.actor(request), request.body);
        return reply.code(201).send({ data: tenant, message: translate(request.lang, 'tenant.saved', { title: tenant.title }) });
      },
    );

    api.get(
      '/system/tenants/:id',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('tenants.manage'),
        schema: {
          tags,
          summary: 'One tenant with its hosts and host admins',
          params: idParamsSchema,
          response: { 200: tenantDetailAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await admin.get(authedUser(request).user, request.params.id) }),
    );

    api.patch(
      '/system/tenants/:id',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('tenants.manage'),
        schema: {
          tags,
          summary: 'Change a tenant (hosts replace the list)',
          params: idParamsSchema,
          body: tenantUpdatePayloadSchema,
          response: { 200: tenantDetailAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const tenant = await admin.update(await actors.actor(request), request.params.id, request.body);
        return { data: tenant, message: translate(request.lang, 'tenant.saved', { title: tenant.title }) };
      },
    );

    api.get(
      '/system/tenants/:id/logo/:kind',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('tenants.manage'),
        schema: { tags, summary: "A tenant's stored logo (preview)", params: logoParams, response: { ...errors } },
      },
      async (request, reply) =>
        sendImage(reply, await admin.logo(authedUser(request).user, request.params.id, request.params.kind), 'private, no-cache'),
    );

    api.post(
      '/system/tenants/:id/logo/:kind',
      {
        config: { rateLimit: RATE_LIMITS.upload },
        preHandler: requireAbility('tenants.manage'),
        schema: {
          tags,
          summary: 'Upload a logo (multipart field "image": PNG, JPEG, WebP, GIF, SVG or AVIF up to 2 MB); stored as PNG or WebP',
          params: logoParams,
          response: { 200: tenantDetailAnswerSchema, ...errors },
        },
      },
      async (request) => {
        // Role and tenant are checked before the upload is read.
        const actor = await actors.actor(request);
        await admin.get(actor.user, request.params.id);
        const file = request.isMultipart() ? await request.file({ limits: { fileSize: LOGO_MAX_BYTES, files: 1 } }) : undefined;
        if (!file) throw fieldError('image', 'validation.required');
        const buffer = await file.toBuffer().catch(() => {
          throw fieldError('image', 'tenant.logo_invalid');
        });
        const tenant = await admin.uploadLogo(actor, request.params.id, request.params.kind, buffer);
        return { data: tenant, message: translate(request.lang, 'tenant.logo_uploaded', { title: tenant.title }) };
      },
    );

    api.delete(
      '/system/tenants/:id/logo/:kind',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('tenants.manage'),
        schema: { tags, summary: 'Remove a logo', params: logoParams, response: { 200: tenantDetailAnswerSchema, ...errors } },
      },
      async (request) => {
        const tenant = await admin.removeLogo(await actors.actor(request), request.params.id, request.params.kind);
        return { data: tenant, message: translate(request.lang, 'tenant.logo_removed', { title: tenant.title }) };
      },
    );

    api.post(
      '/system/tenants/:id/admins',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('tenants.manage'),
        schema: {
          tags,
          summary: 'Make a user of the tenant its host admin (their sessions end)',
          params: idParamsSchema,
          body: tenantAdminPayloadSchema,
          response: { 200: tenantDetailAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const tenant = await admin.setAdmin(await actors.actor(request), request.params.id, request.body.user_id, true);
        return { data: tenant, message: translate(request.lang, 'tenant.saved', { title: tenant.title }) };
      },
    );

    api.delete(
      '/system/tenants/:id/admins/:userId',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('tenants.manage'),
        schema: {
          tags,
          summary: 'Make a host admin a customer again (their sessions end)',
          params: tenantAdminParamsSchema,
          response: { 200: tenantDetailAnswerSchema, ...errors },
        },
      },
      async (request) => {
        const tenant = await admin.setAdmin(await actors.actor(request), request.params.id, request.params.userId, false);
        return { data: tenant, message: translate(request.lang, 'tenant.saved', { title: tenant.title }) };
      },
    );

    api.get(
      '/system/tenants/:id/bank-account',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('invoices.manage'),
        schema: {
          tags,
          summary: "The tenant's bank account for bank transfers (null: bank transfer off)",
          params: idParamsSchema,
          response: { 200: tenantBankAccountAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await bankAccounts.get(authedUser(request).user, request.params.id) }),
    );

    api.put(
      '/system/tenants/:id/bank-account',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('invoices.manage'),
        schema: {
          tags,
          summary: "Set the tenant's bank account (host admins: their tenant; super admins: any)",
          params: idParamsSchema,
          body: tenantBankAccountPayloadSchema,
          response: { 200: tenantBankAccountAnswerSchema, ...errors },
        },
      },
      async (request) => ({
        data: await bankAccounts.set(await actors.actor(request), request.params.id, request.body),
        message: translate(request.lang, 'payments.bank_account_saved'),
      }),
    );

    api.delete(
      '/system/tenants/:id/bank-account',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('invoices.manage'),
        schema: {
          tags,
          summary: "Remove the tenant's bank account (bank transfer is no longer offered)",
          params: idParamsSchema,
          response: { 200: tenantBankAccountAnswerSchema, ...errors },
        },
      },
      async (request) => {
        await bankAccounts.remove(await actors.actor(request), request.params.id);
        return { data: null, message: translate(request.lang, 'payments.bank_account_removed') };
      },
    );

    api.get(
      '/system/tenants/:id/seller-details',
      {
        config: { rateLimit: RATE_LIMITS.read },
        preHandler: requireAbility('invoices.manage'),
        schema: {
          tags,
          summary: "The seller named on the tenant's invoices and e-invoices (null: not set yet)",
          params: idParamsSchema,
          response: { 200: sellerDetailsAnswerSchema, ...errors },
        },
      },
      async (request) => ({ data: await sellerDetails.get(authedUser(request).user, request.params.id) }),
    );

    api.put(
      '/system/tenants/:id/seller-details',
      {
        config: { rateLimit: RATE_LIMITS.write },
        preHandler: requireAbility('invoices.manage'),
        schema: {
          tags,
          summary: "Set the seller's legal name, address and VAT ID (host admins: their tenant; super admins: any)",
          params: idParamsSchema,
          body: sellerDetailsPayloadSchema,
          response: { 200: sellerDetailsAnswerSchema, ...errors },
        },
      },
      async (request) => ({
        data: await sellerDetails.set(await actors.actor(request), request.params.id, request.body),
        message: translate(request.lang, 'payments.seller_details_saved'),
      }),
    );
  };
}
