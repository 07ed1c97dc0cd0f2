import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  /** Successful (2xx) answers per second of the measured run. */
  requestsPerSecond: number;
  p99Ms: number;
  completed: number;
  /** Answers that were not 2xx, plus connection errors and timeouts: a run with many is not a measurement. */
  failures: number;
}

const run = (options: LoadOptions, durationSeconds: number) =>
  autocannon({
    url: options.url,
    connections: options.connections,
    duration: durationSeconds,
    method: options.method ?? 'GET',
    timeout: 10,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.body !== undefined ? { body: options.body } : {}),
  });

/** Warms the server up (JIT, pools, caches), then measures a second run of its own. */
export async function measureLoad(options: LoadOptions): Promise<LoadResult> {
  if (options.warmupSeconds > 0) await run(options, options.warmupSeconds);
  const result = await run(options, options.durationSeconds);
  return {
    requestsPerSecond: result.duration > 0 ? result['2xx'] / result.duration : 0,
    p99Ms: result.latency.p99,
    completed: result.latency.totalCount,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** The run with the most successful answers per second: of runs taken in turn, the one least disturbed. */
export const best = (runs: LoadResult[]): LoadResult => runs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));

/**
 * Runs one round's measurements, each side after the other, the first going first in even rounds
 * and last in odd ones: a side measured first in every round (after the other side's load, or none)
 * would carry any order effect into its figure alone.
 */
export async function inTurn(round: number, sides: (() => Promise<unknown>)[]): Promise<void> {
  for (const side of round % 2 === 0 ? sides : [...sides].reverse()) await side();
}
