// One hashing thread of server/src/lib/password.ts. It runs OpenSSL's argon2 (node:crypto)
// synchronously, one task after another off its own message queue: a thread that ends a hash
// starts the next one itself instead of waiting for the event loop to hand it over.
import { argon2Sync, randomBytes, timingSafeEqual, type Argon2Algorithm } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { deserialize, serialize } from '@phc/format';

export type HashTask =
  | { id: number; op: 'hash'; password: string; memoryCost: number; timeCost: number }
  | { id: number; op: 'verify'; hash: string; password: string };

export type HashAnswer = { id: number; value: string | boolean } | { id: number; error: string };

// As the `argon2` package wrote them (its defaults, and m,p,t in that order), so hashes made
// before and after read the same to every reader of them: this thread, agent/src/ftp-auth.ts and
// Dovecot through migration 0010's view.
const SALT_BYTES = 16;
const TAG_BYTES = 32;
const VERSION = 0x13;
const ALGORITHMS: readonly string[] = ['argon2d', 'argon2i', 'argon2id'] satisfies Argon2Algorithm[];

function hash(password: string, memoryCost: number, timeCost: number): string {
  const salt = randomBytes(SALT_BYTES);
  const tag = argon2Sync('argon2id', {
    message: password,
    nonce: salt,
    parallelism: 1,
    tagLength: TAG_BYTES,
    memory: memoryCost,
    passes: timeCost,
  });
  return serialize({ id: 'argon2id', version: VERSION, params: { m: memoryCost, p: 1, t: timeCost }, salt, hash: tag });
}

/** False for a wrong password and for a string that is not an argon2 hash of version 0x13. */
function verify(encoded: string, password: string): boolean {
  let phc: ReturnType<typeof deserialize>;
  try {
    phc = deserialize(encoded);
  } catch {
    return false;
  }
  const { m, t, p } = phc.params ?? {};
  const numbers = [m, t, p].map(Number);
  if (!ALGORITHMS.includes(phc.id) || phc.version !== VERSION || !phc.salt || !phc.hash || !numbers.every(Number.isSafeInteger))
    return false;
  const [memory = 0, passes = 0, parallelism = 0] = numbers;
  const tag = argon2Sync(phc.id as Argon2Algorithm, {
    message: password,
    nonce: phc.salt,
    parallelism,
    tagLength: phc.hash.length,
    memory,
    passes,
  });
  return timingSafeEqual(tag, phc.hash);
}

parentPort?.on('message', (task: HashTask) => {
  let answer: HashAnswer;
  try {
    answer = {
      id: task.id,
      value: task.op === 'hash' ? hash(task.password, task.memoryCost, task.timeCost) : verify(task.hash, task.password),
    };
  } catch (error) {
    // Parameters OpenSSL refuses (a stored hash with m below 8 p, say): an answer, not a dead thread.
    answer = { id: task.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer);
});
