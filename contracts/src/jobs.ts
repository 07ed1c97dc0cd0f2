import { z } from 'zod';

/** What a super admin sees of a job: waiting (or waiting to be retried), running, failed, done. */
export const jobStateSchema = z.enum(['waiting', 'retrying', 'running', 'failed', 'done']);
export type JobState = z.infer<typeof jobStateSchema>;

/** GET /api/system/jobs: the newest jobs of the durable queue (never their data: a mail job holds links and codes). */
export const jobSchema = z.object({
  id: z.string(),
  /** The kind of work (`mail`, `password_reset`, …). */
  kind: z.string(),
  state: jobStateSchema,
  /** Whom or what it is for (a mail's recipient), when the kind says. */
  subject: z.string().nullable(),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  /** The last failure's message (failed, or retrying). */
  error: z.string().nullable(),
  created_at: z.string(),
  /** When a waiting or retrying job runs next. */
  next_try_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type JobInfo = z.infer<typeof jobSchema>;

export const jobsQuerySchema = z.object({ state: jobStateSchema.optional() });
export const jobsAnswerSchema = z.object({
  data: z.array(jobSchema),
  counts: z.record(jobStateSchema, z.number().int()),
});
export type JobsAnswer = z.infer<typeof jobsAnswerSchema>;
export const jobIdParamsSchema = z.object({ id: z.string().uuid() });
