// One hashing thread of server/src/lib/password.ts. It runs OpenSSL's argon2 (node:crypto)
// synchronously, one task after another off its own message queue: a thread that ends a hash
// starts the next one itself instead of waiting for the event loop to hand it over.
import { argon2Sync, timingSafeEqual } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { newArgon2idHash, readArgon2Hash } from './argon2-phc.ts';

export type HashWork =
  { op: 'hash'; password: string; memoryCost: number; timeCost: number } | { op: 'verify'; hash: string; password: string };
export type HashTask = HashWork & { id: number };
export type HashAnswer = { id: number; value: string | boolean } | { id: number; error: string };

function hash(password: string, memoryCost: number, timeCost: number): string {
  const made = newArgon2idHash(memoryCost, timeCost);
  return made.encode(argon2Sync('argon2id', { message: password, ...made.parameters }));
}

/** False for a wrong password and for a string that is not an argon2 hash of version 0x13. */
function verify(encoded: string, password: string): boolean {
  const stored = readArgon2Hash(encoded);
  return stored !== undefined && timingSafeEqual(argon2Sync(stored.algorithm, { message: password, ...stored.parameters }), stored.tag);
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
