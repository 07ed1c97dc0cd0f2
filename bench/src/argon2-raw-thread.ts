// One thread of raw verifies for bench/src/argon2-baseline.ts: OpenSSL's argon2id (node:crypto)
// called back to back on a thread of its own, on the hash read as the server's hashing threads read
// it (server/src/lib/argon2-phc.ts), with no message, queue or event loop between two verifies.
import { argon2Sync, timingSafeEqual } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { readArgon2Hash } from '../../server/src/lib/argon2-phc.ts';

export interface RawRun {
  hash: string;
  password: string;
  seconds: number;
}

parentPort?.on('message', ({ hash, password, seconds }: RawRun) => {
  const stored = readArgon2Hash(hash);
  if (!stored) throw new Error(`not an argon2 hash: ${hash}`);
  const started = performance.now();
  const until = started + seconds * 1000;
  let verified = 0;
  while (performance.now() < until) {
    if (!timingSafeEqual(argon2Sync(stored.algorithm, { message: password, ...stored.parameters }), stored.tag))
      throw new Error('argon2 verify failed on its own hash');
    verified++;
  }
  parentPort?.postMessage({ verified, seconds: (performance.now() - started) / 1000 });
});
