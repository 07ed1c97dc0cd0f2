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

/** GET/PATCH /api/system/security: who must have a second factor (docs/product.md, enforced 2FA). */
export const securitySettingsSchema = z.object({
  /** This tenant's customers. */
  require_2fa_customers: z.boolean(),
  /** Every host and super admin (the operator's setting). */
  require_2fa_admins: z.boolean(),
  /** Only super admins may change the admins' rule. */
  can_change_admins: z.boolean(),
});
export type SecuritySettings = z.infer<typeof securitySettingsSchema>;
export const securitySettingsAnswerSchema = z.object({ data: securitySettingsSchema, message: z.string().optional() });
export const securitySettingsPayloadSchema = z.object({ require_2fa_customers: z.boolean(), require_2fa_admins: z.boolean() }).partial();
export type SecuritySettingsPayload = z.infer<typeof securitySettingsPayloadSchema>;
