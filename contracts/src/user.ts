import { z } from 'zod';
import { tenantSchema } from './tenant.ts';

export const roleSchema = z.enum(['super_admin', 'host_admin', 'customer']);
export type Role = z.infer<typeof roleSchema>;

export const contactSchema = z.object({
  given_name: z.string(),
  sn: z.string(),
  phone: z.array(z.string()),
  display_name: z.string(),
});
export type Contact = z.infer<typeof contactSchema>;

/** The user fields docs/product.md §3 lists, plus role, language and verification state. */
export const userSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  contact: contactSchema,
  image: z.object({ url: z.string() }),
  google2fa_enabled: z.boolean(),
  notifications_viewed: z.array(z.string()),
  is_super_admin: z.boolean(),
  commission: z.object({ value: z.number(), value_formatted: z.string() }),
  role: roleSchema,
  language: z.string(),
  email_verified: z.boolean(),
  /**
   * The provider requires a second factor of this account and it has none: the panel offers only
   * /account/2fa until one is set up (other calls answer 403 `two_factor_setup_required`).
   */
  two_factor_setup_required: z.boolean().optional(),
  /** Set while an admin is logged in as this customer ("log in as"): who to return to. */
  impersonator: z.object({ id: z.number().int(), email: z.string(), display_name: z.string(), role: roleSchema }).nullable().optional(),
});
export type User = z.infer<typeof userSchema>;

/** GET /api/user: the session's user and tenant. */
export const currentUserAnswerSchema = z.object({
  data: z.object({ user: userSchema, tenant: tenantSchema }),
});
export type CurrentUserAnswer = z.infer<typeof currentUserAnswerSchema>;

/**
 * E-mail as people use it on a panel: one @, no spaces, dotted labels. Single-label hosts
 * (`admin@localhost`) are valid, unlike the browser-form pattern.
 */
export const emailAddressSchema = z
  .string()
  .trim()
  .max(254)
  .regex(/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)*$/, { error: 'validation.email' });
