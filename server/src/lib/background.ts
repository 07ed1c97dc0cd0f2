import type { FastifyBaseLogger } from 'fastify';

/**
 * Work that runs after the answer has been sent. The forgot-password and one-time-code requests
 * hand their account lookup and mail here, so the request path does the same work whether the
 * address has an account or not and its timing tells nothing (docs/decisions/0006-no-account-enumeration.md).
 *
 * A task that fails is logged; a task lost to a crash costs the user one more request, which is
 * what they would do for a mail that did not arrive anyway.
 */
export class BackgroundTasks {
  private static readonly live = new Set<BackgroundTasks>();
  private readonly pending = new Set<Promise<void>>();
  private readonly log: FastifyBaseLogger;
  private gate: Promise<void> = Promise.resolve();

  constructor(log: FastifyBaseLogger) {
    this.log = log;
    BackgroundTasks.live.add(this);
  }

  /** Starts `task` on a later turn of the event loop, after the current answer is written. */
  run(name: string, task: () => Promise<void>): void {
    const done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.gate)
      .then(task)
      .catch((err: unknown) => this.log.error({ err, task: name }, 'background task failed'))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  /** Keeps tasks from starting until the returned function is called (tests look at what the request path alone did). */
  hold(): () => void {
    let release = (): void => undefined;
    this.gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      this.gate = Promise.resolve();
      release();
    };
  }

  /** Resolves when every task started so far, and any they started, has finished. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  async close(): Promise<void> {
    await this.idle();
    BackgroundTasks.live.delete(this);
  }

  /** Tests read what the tasks wrote (an outbox mail) once every app's tasks are done. */
  static async idleAll(): Promise<void> {
    await Promise.all([...BackgroundTasks.live].map((tasks) => tasks.idle()));
  }
}
