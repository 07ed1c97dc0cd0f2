import { z } from 'zod';
import { OTP_LENGTH, PASSWORD_MAX_LENGTH } from './constants.ts';
import { emailAddressSchema } from './user.ts';
import { sessionDataSchema } from './auth.ts';

/** A 6-digit TOTP code; spaces people type are ignored. */
const totpCode = z
  .string()
  .trim()
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, { error: 'validation.totp' }));

/** POST /api/login2fa */
export const login2faPayloadSchema = z.object({ code: totpCode });
/** POST /api/login2fa/recovery: a one-time recovery code (dashes and case ignored). */
export const recoveryPayloadSchema = z.object({ code: z.string().trim().min(1).max(64) });

/** POST /api/password/forgot */
export const passwordForgotPayloadSchema = z.object({ email: emailAddressSchema });

const newPassword = z.string().min(1).max(PASSWORD_MAX_LENGTH);

/** POST /api/password/reset/{uniq_id}/{token} */
export const passwordResetPayloadSchema = z.object({
  password: newPassword,
  password_confirmation: z.string().max(PASSWORD_MAX_LENGTH),
});

/** POST /api/password/otp → notice + data.uniq_id */
export const otpRequestPayloadSchema = z.object({ email: emailAddressSchema });
export const otpRequestAnswerSchema = z.object({
  notice: z.string(),
  data: z.object({ uniq_id: z.string() }),
});

/** POST /api/password/otplogin */
export const otpLoginPayloadSchema = z.object({
  uniq_id: z.string().min(1).max(64),
  otp: z.string().trim().min(1).max(OTP_LENGTH),
  autosubmit: z.boolean().optional(),
});

/** POST /api/registration (docs/product.md §3) */
export const registrationPayloadSchema = z.object({
  contact: z.object({
    given_name: z.string().trim().min(1).max(100),
    sn: z.string().trim().min(1).max(100),
  }),
  email: emailAddressSchema,
  password: newPassword,
  password_confirmation: z.string().max(PASSWORD_MAX_LENGTH),
  terms_agreement: z.literal(true, { error: 'validation.accepted' }),
  processing_personal_data_agreement: z.literal(true, { error: 'validation.accepted' }),
  g_recaptcha_response: z.string().max(10_000).default(''),
});
export type RegistrationPayload = z.input<typeof registrationPayloadSchema>;

/** PATCH /api/register/verify */
export const registerVerifyPayloadSchema = z.object({ code: z.string().trim().min(1).max(128) });

/**
 * POST /api/registration: the same answer whether or not the address already has an account; the
 * session begins with the link of the mail (docs/decisions/0006-no-account-enumeration.md).
 */
export const registrationAnswerSchema = z.object({
  data: z.object({ status: z.literal('verification_required') }),
  message: z.string(),
});

/** PATCH /api/register/verify: the link of a new registration signs its user in (`data`). */
export const registerVerifyAnswerSchema = z.object({
  message: z.string(),
  data: sessionDataSchema.optional(),
});

/** PATCH /api/host/domain-user/change-password */
export const domainUserPasswordPayloadSchema = z.object({
  uid: z.string().trim().min(1).max(320),
  user_password_old: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  user_password: newPassword,
  user_password_confirmation: z.string().max(PASSWORD_MAX_LENGTH),
});

/** GET /api/captcha: which captcha the registration form shows. */
export const captchaConfigSchema = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('altcha'), challenge_url: z.string() }),
  z.object({ provider: z.literal('recaptcha'), site_key: z.string(), action: z.literal('registerform') }),
]);
export const captchaConfigAnswerSchema = z.object({ data: captchaConfigSchema });
export type CaptchaConfig = z.infer<typeof captchaConfigSchema>;

/** The parameters of an ALTCHA v2 proof-of-work challenge; loose: the signature covers every one. */
const altchaParametersSchema = z.looseObject({
  algorithm: z.string(),
  nonce: z.string(),
  salt: z.string(),
  cost: z.number(),
  keyLength: z.number(),
  keyPrefix: z.string(),
  keySignature: z.string().optional(),
  data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
});

/** GET /api/captcha/challenge: bare (no envelope), because the widget reads it as is. */
export const altchaChallengeSchema = z.looseObject({ parameters: altchaParametersSchema, signature: z.string().optional() });

/** What the widget sends back, base64(JSON): the signed challenge and its solution. */
export const altchaPayloadSchema = z.object({
  challenge: z.object({ parameters: altchaParametersSchema, signature: z.string().min(1) }),
  solution: z.object({ counter: z.number(), derivedKey: z.string(), time: z.number().optional() }),
});
export type AltchaPayload = z.infer<typeof altchaPayloadSchema>;

/** Answers that carry a message and the new session (reset, registration, OTP login, 2FA). */
export const messageSessionAnswerSchema = z.object({
  data: sessionDataSchema,
  message: z.string().optional(),
  notice: z.string().optional(),
});

/* ---- /account/2fa ---- */

export const reauthPayloadSchema = z.object({ password: z.string().min(1).max(PASSWORD_MAX_LENGTH) });

export const twoFactorStatusAnswerSchema = z.object({
  data: z.object({ enabled: z.boolean(), recovery_codes_remaining: z.number().int() }),
});

/** POST /api/account/2fa/setup: a new secret to scan; it becomes active once a code confirms it. */
export const twoFactorSetupAnswerSchema = z.object({
  data: z.object({ secret: z.string(), otpauth_url: z.string(), qr_code: z.string() }),
});

export const twoFactorEnablePayloadSchema = z.object({ code: totpCode });

/** Recovery codes are shown once: after enabling, and after regenerating. */
export const recoveryCodesAnswerSchema = z.object({
  data: z.object({ recovery_codes: z.array(z.string()) }),
  message: z.string().optional(),
});

/* ---- /account: password and sessions ---- */

/** PATCH /api/account/password (the /password screen). */
export const passwordChangePayloadSchema = z.object({
  current_password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  password: newPassword,
  password_confirmation: z.string().max(PASSWORD_MAX_LENGTH),
});

export const sessionListItemSchema = z.object({
  id: z.string(),
  device: z.string(),
  ip: z.string().nullable(),
  created_at: z.string(),
  last_seen_at: z.string(),
  current: z.boolean(),
});
export const sessionListAnswerSchema = z.object({ data: z.array(sessionListItemSchema) });
export type SessionListItem = z.infer<typeof sessionListItemSchema>;

/* ---- /system/outbox ---- */

export const outboxMailSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  created_at: z.string(),
});
export const outboxAnswerSchema = z.object({ data: z.array(outboxMailSchema) });
export type OutboxMail = z.infer<typeof outboxMailSchema>;

/** PATCH /api/account/email: needs the current password; the new address must be verified again. */
export const emailChangePayloadSchema = z.object({
  current_password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  email: emailAddressSchema,
});
export type EmailChangePayload = z.infer<typeof emailChangePayloadSchema>;
