import { z } from 'zod';

export const healthAnswerSchema = z.object({
  status: z.enum(['ok', 'error']),
  database: z.enum(['ok', 'error']),
});
export type HealthAnswer = z.infer<typeof healthAnswerSchema>;
