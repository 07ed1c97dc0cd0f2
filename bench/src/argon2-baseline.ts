import argon2 from 'argon2';

export interface Argon2Parameters {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/**
 * The ceiling for logins/s: argon2id verifies done in this process with nothing else around them,
 * `concurrency` at a time (as many as the server runs at once: bench/src/run.ts) for `durationSeconds`.
 */
export async function argon2VerifiesPerSecond(
  password: string,
  parameters: Argon2Parameters,
  concurrency: number,
  durationSeconds: number,
  warmupSeconds = 0,
): Promise<number> {
  const hash = await argon2.hash(password, { type: argon2.argon2id, ...parameters });
  const loop = async (seconds: number) => {
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
  };
  if (warmupSeconds > 0) await loop(warmupSeconds);
  return loop(durationSeconds);
}
