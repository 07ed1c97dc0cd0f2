import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { HashAnswer, HashTask, HashWork } from './password-worker.ts';

export interface PasswordHasherOptions {
  memoryCost: number;
  timeCost: number;
}

/** The hashing threads' name, as Linux shows it (/proc/<pid>/task/<tid>/comm). */
export const HASHING_THREAD_NAME = 'berth-hash';

/** A hashing thread died with the task on it (it is replaced at once): the request may be retried. */
export class HashingInterrupted extends Error {}

interface Job {
  task: HashTask;
  resolve: (value: string | boolean) => void;
  reject: (error: Error) => void;
}

interface Lane {
  worker: Worker;
  jobs: Map<number, Job>;
}

/**
 * Password hashing on threads of its own, one per core (server/src/lib/password-worker.ts), so that
 * at most one memory-hard hash per core runs at a time in the whole process: on a 2-core server
 * more at once take turns on the cores and evict each other's memory from the caches, each costing
 * more CPU (4 raw verifies at a time: 7% fewer per second than 2), and the memory hashing holds is
 * bounded by `memoryCost` per core. Each thread holds one task beyond the one it runs and starts it
 * as it ends the first, without waiting for the event loop: 107.1 logins a second where the
 * `argon2` package on libuv's pool, behind a limit of one per core, made 100.8 (12 interleaved
 * rounds; docs/decisions/0023-password-hashing-threads.md). libuv's pool stays free for files, DNS
 * lookups and compression.
 */
export class HashingThreads {
  private readonly size: number;
  private readonly lanes: Lane[] = [];
  private readonly waiting: Job[] = [];
  private nextId = 1;

  constructor(size: number) {
    this.size = size;
  }

  run(work: HashWork): Promise<string | boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ task: { ...work, id: this.nextId++ }, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * Hands waiting tasks to the least busy thread while one holds fewer than two, and starts a thread
   * only when every one it has is busy: a program that hashes one password at a time uses one.
   */
  private dispatch(): void {
    while (this.waiting.length > 0) {
      let lane = this.lanes.reduce<Lane | undefined>(
        (least, lane) => (least && least.jobs.size <= lane.jobs.size ? least : lane),
        undefined,
      );
      if ((!lane || lane.jobs.size > 0) && this.lanes.length < this.size) {
        lane = this.start();
        this.lanes.push(lane);
      }
      if (!lane || lane.jobs.size >= 2) return;
      const job = this.waiting.shift() as Job;
      lane.jobs.set(job.task.id, job);
      // Held open only while it has work: an idle thread never keeps a finished process alive.
      lane.worker.ref();
      lane.worker.postMessage(job.task);
    }
  }

  private start(): Lane {
    // Named, so that `top -H` and bench/src/cpu-split.ts tell the hashing threads apart. None of the
    // process's own Node flags: the thread needs none, and some refuse a worker's file (a program
    // run with `--input-type=module -e`, as password.unit.test.ts runs one).
    const worker = new Worker(new URL('./password-worker.ts', import.meta.url), { name: HASHING_THREAD_NAME, execArgv: [] });
    const lane: Lane = { worker, jobs: new Map() };
    // Started for a task it gets at once (dispatch); it is unref'd when it has none left. An unref
    // here would not hold: the `message` listener below refs the thread's port again.
    lane.worker.on('message', (answer: HashAnswer) => {
      const job = lane.jobs.get(answer.id);
      if (!job) return;
      lane.jobs.delete(answer.id);
      if (lane.jobs.size === 0) lane.worker.unref();
      if ('error' in answer) job.reject(new Error(answer.error));
      else job.resolve(answer.value);
      this.dispatch();
    });
    // A thread that fails or exits is dropped with its tasks; the next task starts a new one.
    lane.worker.on('error', () => this.drop(lane));
    lane.worker.on('exit', () => this.drop(lane));
    return lane;
  }

  private drop(lane: Lane): void {
    const index = this.lanes.indexOf(lane);
    if (index < 0) return;
    this.lanes.splice(index, 1);
    for (const job of lane.jobs.values()) job.reject(new HashingInterrupted('the hashing thread stopped'));
    lane.jobs.clear();
    this.dispatch();
  }
}

const threads = new HashingThreads(availableParallelism());

/** argon2id at or above the OWASP minimum (m = 19 MiB, t = 2, p = 1). */
export class PasswordHasher {
  private readonly options: PasswordHasherOptions;
  private dummyHash: Promise<string> | undefined;

  constructor(options: PasswordHasherOptions) {
    this.options = options;
  }

  async hash(password: string): Promise<string> {
    return (await threads.run({ op: 'hash', password, memoryCost: this.options.memoryCost, timeCost: this.options.timeCost })) as string;
  }

  /** False for a wrong password or a hash that cannot be read; throws HashingInterrupted if no answer came. */
  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return (await threads.run({ op: 'verify', hash, password })) === true;
    } catch (error) {
      if (error instanceof HashingInterrupted) throw error;
      return false;
    }
  }

  /** Verifies against a throwaway hash so an unknown account costs the same time as a known one. */
  async verifyDummy(password: string): Promise<false> {
    this.dummyHash ??= this.hash(randomBytes(16).toString('hex')).catch((error: unknown) => {
      this.dummyHash = undefined;
      throw error;
    });
    await this.verify(await this.dummyHash, password);
    return false;
  }
}

/** A password a person can type once from the console: 24 characters from an unambiguous alphabet. */
export function generatePassword(length = 24): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(length * 2);
  let out = '';
  for (const byte of bytes) {
    // Rejection sampling keeps the distribution uniform.
    if (byte >= Math.floor(256 / alphabet.length) * alphabet.length) continue;
    out += alphabet[byte % alphabet.length];
    if (out.length === length) break;
  }
  return out.length === length ? out : generatePassword(length);
}
