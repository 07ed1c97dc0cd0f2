// One thread of raw verifies for bench/src/argon2-baseline.ts: OpenSSL's argon2id (node:crypto)
// called back to back on a thread of its own, as the server's hashing threads run it
// (server/src/lib/password-worker.ts), with no message, queue or event loop between two verifies.
import { argon2Sync, timingSafeEqual } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { deserialize } from '@phc/format';

export interface RawRun {
  hash: string;
  password: string;
  seconds: number;
}

parentPort?.on('message', ({ hash, password, seconds }: RawRun) => {
  const { salt, hash: tag, params } = deserialize(hash);
  if (!salt || !tag || !params) throw new Error(`not an argon2 hash: ${hash}`);
  const options = {
    message: password,
    nonce: salt,
    parallelism: Number(params.p),
    tagLength: tag.length,
    memory: Number(params.m),
    passes: Number(params.t),
  };
  const started = performance.now();
  const until = started + seconds * 1000;
  let verified = 0;
  while (performance.now() < until) {
    if (!timingSafeEqual(argon2Sync('argon2id', options), tag)) throw new Error('argon2 verify failed on its own hash');
    verified++;
  }
  parentPort?.postMessage({ verified, seconds: (performance.now() - started) / 1000 });
});
