import { z } from 'zod';
import { tenantSchema } from './tenant.ts';
import { abilitySchema } from './policy.ts';

export const roleSchema = z.enum(['super_admin', 'host_admin', 'customer']);
export type Role = z.infer<typeof roleSchema>;

export const contactSchema = z.object({
  given_name: z.string(),
  sn: z.string(),
  phone: z.array(z.string()),
  display_name: z.string(),
});
export type Contact = z.infer<typeof contactSchema>;

/** Billing details on the profile, printed on invoices (empty strings when not given). */
export const billingSchema = z.object({
  company: z.string(),
  vat_id: z.string(),
  street: z.string(),
  city: z.string(),
  postal_code: z.string(),
  country: z.string(),
});
export type Billing = z.infer<typeof billingSchema>;

/** Two letters of ISO 3166-1 (the browser's list of regions names them). */
export const COUNTRY_CODE_PATTERN = /^[A-Z]{2}$/;
/** An EU VAT number as VIES takes it: the country prefix and 2 to 13 letters or digits. */
export const VAT_ID_PATTERN = /^[A-Z]{2}[0-9A-Z+*.]{2,13}$/;

const optionalText = (max: number) => z.string().trim().max(max);

/** PATCH /api/user/profile: the own name, phone and billing details. */
export const profileUpdatePayloadSchema = z.object({
  given_name: z.string().trim().min(1).max(100),
  sn: z.string().trim().min(1).max(100),
  phone: z
    .string()
    .trim()
    .max(32)
    .regex(/^$|^\+?[0-9 ()./-]{6,31}$/, { error: 'validation.phone' }),
  company: optionalText(200),
  vat_id: z
    .string()
    .trim()
    .transform((value) => value.replace(/[\s-]/g, '').toUpperCase())
    .pipe(z.string().refine((value) => value === '' || VAT_ID_PATTERN.test(value), { error: 'validation.vat_id' })),
  street: optionalText(200),
  city: optionalText(100),
  postal_code: optionalText(20),
  country: z
    .string()
    .trim()
    .transform((value) => value.toUpperCase())
    .pipe(z.string().refine((value) => value === '' || COUNTRY_CODE_PATTERN.test(value), { error: 'validation.country' })),
});
export type ProfileUpdatePayload = z.infer<typeof profileUpdatePayloadSchema>;

/** The user fields docs/product.md §3 lists, plus role, language and verification state. */
export const userSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  contact: contactSchema,
  billing: billingSchema.optional(),
  /** `custom`: an uploaded picture (else the URL draws the initials); given where it was read. */
  image: z.object({ url: z.string(), custom: z.boolean().optional() }),
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

/**
 * GET /api/user: the session's user and tenant, and what the user may do there (the policy table's
 * answer, server/src/modules/policy/table.ts): the web hides what the API would refuse.
 */
export const currentUserAnswerSchema = z.object({
  data: z.object({ user: userSchema, tenant: tenantSchema, abilities: z.array(abilitySchema) }),
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
