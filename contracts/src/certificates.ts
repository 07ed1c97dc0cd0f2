import { z } from 'zod';

/**
 * A domain's certificate (modules/certificates):
 *   GET  /host/domain/{id}/certificate         certificateAnswerSchema
 *   POST /host/domain/{id}/certificate/renew   certificateAnswerSchema (202: ordered now)
 *   PUT  /host/domain/{id}/certificate         certificateUploadPayloadSchema -> certificateAnswerSchema (one's own; 422 per field)
 *
 * `state`: `pending` (ordered, none yet), `valid`, `renewing` (valid; a new one is being ordered
 * or its order failed and is tried again at `next_try_at`), `failed` (none valid; tried again at
 * `next_try_at`), `none` (the domain is not served yet, or certificates are off on this platform).
 */
export const CERTIFICATE_STATES = ['none', 'pending', 'valid', 'renewing', 'failed'] as const;
export const certificateStateSchema = z.enum(CERTIFICATE_STATES);
export const certificateMethodSchema = z.enum(['dns-01', 'http-01', 'custom']);

export const certificateSchema = z.object({
  state: certificateStateSchema,
  /** The names it covers: the domain and its wildcard. */
  names: z.array(z.string()),
  /** How the CA checked the names: a TXT record in Berth's own zone (dns-01), a file on the web server (http-01), or uploaded. */
  method: certificateMethodSchema.nullable(),
  issuer: z.string().nullable(),
  not_before: z.string().nullable(),
  not_after: z.string().nullable(),
  /** When it is renewed (two thirds of its lifetime). */
  renew_at: z.string().nullable(),
  /** The CA's reason for the last failure, in its words. */
  problem: z.string().nullable(),
  next_try_at: z.string().nullable(),
});
export type Certificate = z.infer<typeof certificateSchema>;
export const certificateAnswerSchema = z.object({ data: certificateSchema, message: z.string().optional() });

/** One's own certificate: the PEM chain (the certificate first, then the ones that signed it) and its key. */
export const certificateUploadPayloadSchema = z.object({
  certificate: z.string().trim().min(1).max(65_536),
  private_key: z.string().trim().min(1).max(16_384),
});
export type CertificateUploadPayload = z.infer<typeof certificateUploadPayloadSchema>;
