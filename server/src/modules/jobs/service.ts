import type { JobInfo, JobState, JobsAnswer } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';
import { countJobsByState, findJobName, listJobs, type JobRow } from './queries.ts';
import type { JobQueue } from './queue.ts';

export const JOBS_PAGE_SIZE = 200;

/** pg-boss's states as the page names them. */
const STATES: Record<JobState, readonly JobRow['state'][]> = {
  waiting: ['created'],
  retrying: ['retry'],
  running: ['active'],
  failed: ['failed'],
  done: ['completed', 'cancelled'],
};
const stateOf = (state: JobRow['state']): JobState =>
  (Object.keys(STATES) as JobState[]).find((name) => STATES[name].includes(state)) ?? 'done';

/** The last failure's message that pg-boss stored as the job's output. */
function errorOf(row: JobRow): string | null {
  if (row.state !== 'failed' && row.state !== 'retry') return null;
  const output = row.output as { message?: unknown } | null;
  return typeof output?.message === 'string' ? output.message.slice(0, 500) : null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** /system/jobs: what the durable queue holds, and a failed job tried again. */
export class JobsAdmin {
  private readonly db: Db;
  private readonly queue: JobQueue;

  constructor(db: Db, queue: JobQueue) {
    this.db = db;
    this.queue = queue;
  }

  async list(state: JobState | undefined): Promise<JobsAnswer> {
    const states = state ? STATES[state] : Object.values(STATES).flat();
    const [rows, byState] = await Promise.all([listJobs(this.db, states, JOBS_PAGE_SIZE), countJobsByState(this.db)]);
    const counts = Object.fromEntries(
      (Object.keys(STATES) as JobState[]).map((name) => [name, STATES[name].reduce((sum, s) => sum + (byState[s] ?? 0), 0)]),
    ) as Record<JobState, number>;
    return { data: rows.map((row) => this.toInfo(row)), counts };
  }

  private toInfo(row: JobRow): JobInfo {
    const state = stateOf(row.state);
    return {
      id: row.id,
      kind: row.name,
      state,
      subject: this.queue.describe(row.name, row.data),
      attempts: row.retry_count + (row.state === 'created' ? 0 : 1),
      max_attempts: row.retry_limit + 1,
      error: errorOf(row),
      created_at: iso(row.created_on) ?? '',
      next_try_at: state === 'waiting' || state === 'retrying' ? iso(row.start_after) : null,
      finished_at: iso(row.completed_on),
    };
  }

  /** Runs a failed job again now: 404 for an unknown job, 409 for one that has not failed. */
  async retry(id: string): Promise<void> {
    const name = await findJobName(this.db, id);
    if (!name || !this.queue.has(name)) throw new HttpError(404, 'jobs.not_found');
    if (!(await this.queue.retry(name, id))) throw new HttpError(409, 'jobs.not_failed');
  }
}
