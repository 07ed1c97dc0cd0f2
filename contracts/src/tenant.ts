import { z } from 'zod';

/** docs/product.md §3: id, title, config (admin_logo, admin_logo_footer, host_purchases). */
export const tenantConfigSchema = z.object({
  admin_logo: z.string().nullable(),
  admin_logo_footer: z.string().nullable(),
  /** When set, the tenant sells through its own shop: the external cart path. */
  host_purchases: z.string().nullable(),
});

export const tenantSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  config: tenantConfigSchema,
});
export type Tenant = z.infer<typeof tenantSchema>;

/** GET /api/tenant: the tenant of the request's host name, public (the login screen needs it). */
export const tenantAnswerSchema = z.object({ data: tenantSchema });
