import { z } from 'zod';
import { abilitySchema } from './policy.ts';
import { PASSWORD_MAX_LENGTH } from './constants.ts';
import { userSchema } from './user.ts';
import { tenantSchema } from './tenant.ts';

/** POST /api/login (docs/product.md §3: email, password, remember). `email` also takes a uid. */
export const loginPayloadSchema = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  /** A 30-day session only when asked for: the login form ticks it by default, API clients must say so. */
  remember: z.boolean().default(false),
});
export type LoginPayload = z.input<typeof loginPayloadSchema>;

/**
 * The session answer (docs/product.md §7) after login, registration, reset and OTP login:
 * either a signed-in user with the tenant, or a pending second factor.
 */
export const sessionDataSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('authenticated'), user: userSchema, tenant: tenantSchema, abilities: z.array(abilitySchema) }),
  z.object({ status: z.literal('two_factor_required') }),
]);
export type SessionData = z.infer<typeof sessionDataSchema>;

export const sessionAnswerSchema = z.object({
  data: sessionDataSchema,
  message: z.string().optional(),
  notice: z.string().optional(),
});
export type SessionAnswer = z.infer<typeof sessionAnswerSchema>;
