import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';

// pg-boss's own tables (schema `pgboss`, see queue.ts) are not in the Kysely schema: read as SQL.

/** Jobs that still have to run now: waiting, due retries and running ones. */
export async function countUnfinishedJobs(db: Db): Promise<number> {
  const result = await sql<{ n: number }>`
    select count(*)::int as n from pgboss.job
    where state = 'active' or (state in ('created', 'retry') and start_after <= now())`.execute(db);
  return result.rows[0]?.n ?? 0;
}

export interface JobRow {
  id: string;
  name: string;
  state: 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';
  data: unknown;
  output: unknown;
  retry_count: number;
  retry_limit: number;
  created_on: Date;
  started_on: Date | null;
  completed_on: Date | null;
  start_after: Date;
}

/** The newest jobs in the given states (at most `limit`). */
export async function listJobs(db: Db, states: readonly string[], limit: number): Promise<JobRow[]> {
  const result = await sql<JobRow>`
    select id::text, name, state::text, data, output, retry_count, retry_limit, created_on, started_on, completed_on, start_after
    from pgboss.job where state::text in (${sql.join(states)})
    order by created_on desc limit ${limit}`.execute(db);
  return result.rows;
}

/** Jobs per state, over every queue. */
export async function countJobsByState(db: Db): Promise<Record<string, number>> {
  const result = await sql<{ state: string; n: number }>`
    select state::text, count(*)::int as n from pgboss.job group by state`.execute(db);
  return Object.fromEntries(result.rows.map((row) => [row.state, row.n]));
}

/** One job's queue name (the retry needs it). */
export async function findJobName(db: Db, id: string): Promise<string | undefined> {
  const result = await sql<{ name: string }>`select name from pgboss.job where id::text = ${id} limit 1`.execute(db);
  return result.rows[0]?.name;
}
