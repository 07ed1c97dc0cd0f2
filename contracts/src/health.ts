import { z } from 'zod';

export const healthAnswerSchema = z.object({
  status: z.enum(['ok', 'error']),
  database: z.enum(['ok', 'error']),
  /** `off` when the instance runs without Redis (realtime in-process). */
  redis: z.enum(['ok', 'error', 'off']),
  /** `error` while writes fail for want of space on the database's storage. */
  storage: z.enum(['ok', 'error']),
});
export type HealthAnswer = z.infer<typeof healthAnswerSchema>;
