import { z } from 'zod';

/** Field errors keyed by dot path (e.g. `contact.sn`), each with one or more texts. */
export const fieldErrorsSchema = z.record(z.string(), z.array(z.string()));
export type FieldErrors = z.infer<typeof fieldErrorsSchema>;

/** Every error answer: a message, and per-field errors on 422. */
/** Codes an error answer may carry for the web to act on (besides its translated message). */
export const ERROR_CODES = { twoFactorSetupRequired: 'two_factor_setup_required' } as const;

export const errorAnswerSchema = z.object({
  message: z.string(),
  /** A machine-readable reason (ERROR_CODES), when the web must act on it. */
  code: z.string().optional(),
  errors: fieldErrorsSchema.optional(),
});
export type ErrorAnswer = z.infer<typeof errorAnswerSchema>;

/** Wraps a payload in the answer envelope `{ data?, message?, notice? }`. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({
    data,
    message: z.string().optional(),
    notice: z.string().optional(),
  });

export const messageAnswerSchema = z.object({
  message: z.string().optional(),
  notice: z.string().optional(),
});
export type MessageAnswer = z.infer<typeof messageAnswerSchema>;
