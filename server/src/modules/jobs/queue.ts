import type { FastifyBaseLogger } from 'fastify';
import { PgBoss, fromKysely, type Db as BossDb, type Job, type JobResult, type QueueOptions } from 'pg-boss';
import { embeddedDatabaseOf, type Db } from '../../db/connection.ts';
import { countUnfinishedJobs } from './queries.ts';

/** pg-boss keeps its tables in their own schema: the app's `public` tables stay what they were. */
export const JOBS_SCHEMA = 'pgboss';

/** Retries with backoff unless a queue says otherwise: 30 s, 1 min, 2 min … at most an hour apart, 8 tries. */
export const DEFAULT_RETRY: QueueOptions = { retryLimit: 8, retryDelay: 30, retryBackoff: true, retryDelayMax: 3600 };

/** How long a finished job is kept (mail jobs carry links and codes: not longer than needed). */
const KEEP_FINISHED_SECONDS = 3600;
/**
 * Workers take up to 5 jobs at a time and fetch again at once while batches come back full (a
 * backlog after a restart drains at full speed); NOTIFY wakes them for new jobs, polling is the
 * backstop (10 s, or 2 s where LISTEN is not available).
 */
const WORK_OPTIONS = {
  batchSize: 5,
  burstWhenBatchFull: true,
  localConcurrency: 2,
  perJobResults: true,
  pollingIntervalSeconds: 2,
  notifyPollingIntervalSeconds: 10,
} as const;

/** A job running longer than this is taken for dead (its process crashed) and tried again. */
const EXPIRE_SECONDS = 300;

export interface JobDefinition<T> {
  name: string;
  /** Enqueues; `db` is the caller's transaction when the job must exist only if the change commits. */
  send(data: T, options?: { db?: Db | undefined; startAfter?: Date }): Promise<void>;
}

export interface JobKindOptions<T> extends QueueOptions {
  /** Whom or what a job is for, shown to super admins (never the data itself: it may hold codes). */
  describe?: (data: T) => string | null;
}

interface Registered {
  name: string;
  options: QueueOptions;
  run(data: unknown): Promise<void>;
  describe(data: unknown): string | null;
}

/**
 * The durable job queue (pg-boss on the app's database, PostgreSQL or the embedded PGlite): work
 * that must happen after an answer survives a crash, is retried with backoff and is visible to
 * super admins on /system/jobs (docs/decisions/0015-durable-jobs.md).
 */
export class JobQueue {
  private static readonly live = new Set<JobQueue>();
  private readonly db: Db;
  private readonly log: FastifyBaseLogger;
  private readonly boss: PgBoss;
  private readonly defined = new Map<string, Registered>();
  private readonly workers = new Map<string, string>();
  private readonly runWorkers: boolean;
  private started = false;
  private gate: Promise<void> = Promise.resolve();

  constructor(options: { db: Db; databaseUrl?: string | undefined; log: FastifyBaseLogger; workers?: boolean }) {
    this.db = options.db;
    this.runWorkers = options.workers ?? true;
    this.log = options.log;
    const embedded = embeddedDatabaseOf(options.db);
    // No instance registry (Berth never reads it): its upkeep samples the event loop's delay on a
    // 20 ms timer, which woke an idle server's main thread 53 times a second instead of 3.
    const common = { schema: JOBS_SCHEMA, useListenNotify: true, schedule: false, monitorVacuum: false, registerInstance: false };
    this.boss = embedded
      ? new PgBoss({ ...common, backend: 'pglite', db: serialized(options.db, embedded) })
      : new PgBoss({ ...common, connectionString: options.databaseUrl, max: 3, connectionTimeoutMillis: 5_000 });
    // A lost database is reported here (and the next poll tries again): never fatal.
    this.boss.on('error', (err) => this.log.warn({ err }, 'job queue: database error; retrying'));
    this.boss.on('warning', (warning) => this.log.info({ warning }, 'job queue warning'));
  }

  /** Registers a job kind and its handler; call before start(). */
  define<T extends object>(name: string, run: (data: T) => Promise<void>, options: JobKindOptions<T> = {}): JobDefinition<T> {
    if (this.started) throw new Error(`job ${name} defined after the queue started`);
    if (this.defined.has(name)) throw new Error(`job ${name} defined twice`);
    const { describe, ...queueOptions } = options;
    this.defined.set(name, {
      name,
      options: { ...DEFAULT_RETRY, ...queueOptions },
      run: run as (data: unknown) => Promise<void>,
      describe: (data) => {
        try {
          return describe ? describe(data as T) : null;
        } catch {
          return null;
        }
      },
    });
    return {
      name,
      send: async (data, sendOptions = {}) => {
        await this.boss.send(name, data, {
          ...(sendOptions.db ? { db: fromKysely(sendOptions.db) } : {}),
          ...(sendOptions.startAfter ? { startAfter: sendOptions.startAfter } : {}),
        });
        // This instance's worker starts at once; others hear the NOTIFY.
        const worker = this.workers.get(name);
        if (worker) this.boss.notifyWorker(worker);
      },
    };
  }

  /** Whom or what a stored job is for (null for kinds that do not say, or no longer exist). */
  describe(name: string, data: unknown): string | null {
    return this.defined.get(name)?.describe(data) ?? null;
  }

  has(name: string): boolean {
    return this.defined.has(name);
  }

  /** Installs or upgrades pg-boss's schema, creates the queues and starts one worker per queue. */
  async start(): Promise<void> {
    this.started = true;
    JobQueue.live.add(this);
    await this.boss.start();
    const existing = new Set((await this.boss.getQueues()).map((queue) => queue.name));
    for (const job of this.defined.values()) {
      const options = { ...job.options, notify: true, expireInSeconds: EXPIRE_SECONDS, deleteAfterSeconds: KEEP_FINISHED_SECONDS };
      if (existing.has(job.name)) await this.boss.updateQueue(job.name, options);
      else await this.boss.createQueue(job.name, options);
      if (!this.runWorkers) continue;
      const id = await this.boss.work(job.name, WORK_OPTIONS, async (batch: Job<object>[]): Promise<JobResult[]> => {
        await this.gate;
        const results: JobResult[] = [];
        for (const one of batch) {
          try {
            await job.run(one.data);
            results.push({ id: one.id, status: 'completed' });
          } catch (error) {
            // Each job of a batch fails (and is retried) on its own; the message is what /system/jobs shows.
            results.push({ id: one.id, status: 'failed', output: { message: error instanceof Error ? error.message : String(error) } });
          }
        }
        return results;
      });
      this.workers.set(job.name, id);
    }
  }

  /** Retries a failed job now. */
  async retry(name: string, id: string): Promise<boolean> {
    if (!this.defined.has(name)) return false;
    const answer = await this.boss.retry(name, id);
    for (const worker of this.workers.values()) this.boss.notifyWorker(worker);
    // pg-boss's typings leave CommandResponse empty; it carries the count of jobs changed.
    return ((answer as { affected?: number }).affected ?? 0) > 0;
  }

  /** Keeps handlers from running until the returned function is called (tests look at what the request path alone did). */
  hold(): () => void {
    let release = (): void => undefined;
    this.gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.gate = Promise.resolve();
      release();
    };
  }

  /** Resolves when no job is waiting to run or running (tests read what the jobs wrote). */
  async idle(timeoutMs = 30_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while ((await countUnfinishedJobs(this.db)) > 0) {
      if (Date.now() > until) throw new Error('jobs still waiting after 30 s');
      for (const worker of this.workers.values()) this.boss.notifyWorker(worker);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Tests read what the jobs wrote (an outbox mail) once every running app's queue is idle. */
  static async idleAll(): Promise<void> {
    await Promise.all([...JobQueue.live].map((queue) => queue.idle()));
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    JobQueue.live.delete(this);
    await this.boss.stop({ graceful: true, timeout: 5_000, close: true });
  }
}

/**
 * pg-boss's statements on the embedded database go through Kysely's connection queue: PGlite has
 * one connection, and a statement sent beside it would run inside whatever transaction the app has
 * open there. Statements without parameters can be several (pg-boss's schema), hence `exec`.
 */
function serialized(db: Db, pglite: NonNullable<ReturnType<typeof embeddedDatabaseOf>>): BossDb {
  const exclusive = <R>(run: () => Promise<R>): Promise<R> => db.connection().execute(run);
  return {
    executeSql: (text, values) =>
      exclusive(async () => {
        if (values?.length) return { rows: (await pglite.query(text, values)).rows as unknown[] };
        try {
          return { rows: (await pglite.exec(text)).flatMap((result) => result.rows) };
        } catch (error) {
          // A failed BEGIN … COMMIT block must not leave the one connection in an aborted transaction.
          await pglite.query('rollback').catch(() => undefined);
          throw error;
        }
      }),
    listen: async (channel, onNotification, onReconnect) => {
      const unlisten = await exclusive(() => pglite.listen(channel, onNotification));
      onReconnect();
      return { close: () => exclusive(() => unlisten()) };
    },
  };
}
