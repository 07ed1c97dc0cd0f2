import argon2 from 'argon2';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { RawRun } from './argon2-raw-thread.ts';

export interface Argon2Parameters {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/**
 * Whose argon2id: OpenSSL's through node:crypto, which the server runs on threads of its own
 * (server/src/lib/password-worker.ts), or the `argon2` package's on libuv's pool, which it ran
 * before (for reference).
 */
export type Argon2Implementation = 'openssl' | 'argon2-package';

/** `concurrency` threads each verifying back to back for `seconds`: verifies per second in all. */
async function opensslRun(run: RawRun, concurrency: number): Promise<number> {
  const threads = Array.from({ length: concurrency }, () => new Worker(new URL('./argon2-raw-thread.ts', import.meta.url)));
  try {
    const answers = threads.map(async (thread) => {
      thread.postMessage(run);
      const [answer] = (await once(thread, 'message')) as [{ verified: number; seconds: number }];
      return answer;
    });
    const ends = await Promise.all(answers);
    return ends.reduce((sum, end) => sum + end.verified / end.seconds, 0);
  } finally {
    await Promise.all(threads.map((thread) => thread.terminate()));
  }
}

/** The `argon2` package's verifies on libuv's pool, `concurrency` at a time, for `seconds`. */
async function packageRun({ hash, password, seconds }: RawRun, concurrency: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let verified = 0;
  const lane = async () => {
    while (performance.now() < until) {
      if (!(await argon2.verify(hash, password))) throw new Error('argon2 verify failed on its own hash');
      verified++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, lane));
  return verified / ((performance.now() - started) / 1000);
}

/**
 * The ceiling for logins/s: argon2id verifies done in this process with nothing else around them,
 * `concurrency` at a time (as many as the server runs at once: bench/src/logins.ts) for
 * `durationSeconds`.
 */
export async function argon2VerifiesPerSecond(
  password: string,
  parameters: Argon2Parameters,
  concurrency: number,
  durationSeconds: number,
  warmupSeconds = 0,
  implementation: Argon2Implementation = 'openssl',
): Promise<number> {
  const hash = await argon2.hash(password, { type: argon2.argon2id, ...parameters });
  const measure = implementation === 'openssl' ? opensslRun : packageRun;
  if (warmupSeconds > 0) await measure({ hash, password, seconds: warmupSeconds }, concurrency);
  return measure({ hash, password, seconds: durationSeconds }, concurrency);
}
