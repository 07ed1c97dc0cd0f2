import { z } from 'zod';

export const PASSKEYS_PER_USER_MAX = 10;

export const passkeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Synced between devices by its provider (a backed-up, multi-device credential). */
  synced: z.boolean(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;
export const passkeyListAnswerSchema = z.object({ data: z.array(passkeySchema) });
export const passkeyAnswerSchema = z.object({ data: passkeySchema, message: z.string().optional() });

/** The browser's WebAuthn answer as @simplewebauthn/browser gives it (checked by the server's library). */
const webauthnResponseSchema = z
  .object({ id: z.string().min(1).max(1024), rawId: z.string().max(1024), type: z.literal('public-key') })
  .loose();

/** Options for navigator.credentials, with the id of the challenge to answer (used once, for 5 minutes). */
export const webauthnOptionsAnswerSchema = z.object({
  data: z.object({ challenge_id: z.string(), options: z.record(z.string(), z.unknown()) }),
});
export const passkeyRegisterPayloadSchema = z.object({
  challenge_id: z.string().min(1).max(100),
  name: z.string().trim().min(1).max(60),
  response: webauthnResponseSchema,
});
export const passkeyRenamePayloadSchema = z.object({ name: z.string().trim().min(1).max(60) });
export const passkeyLoginPayloadSchema = z.object({ challenge_id: z.string().min(1).max(100), response: webauthnResponseSchema });
