// argon2 hashes as PHC strings, read and written as the `argon2` package wrote them (its defaults,
// and m,p,t in that order), so hashes made before and after read the same to every reader of them:
// the hashing threads (password-worker.ts), agent/src/ftp-auth.ts, Dovecot through migration 0010's
// view, and the bench's raw verifies (bench/src/argon2-raw-thread.ts).
import { randomBytes, type Argon2Algorithm, type Argon2Parameters } from 'node:crypto';
import { deserialize, serialize } from '@phc/format';

const SALT_BYTES = 16;
const TAG_BYTES = 32;
const VERSION = 0x13;
const ALGORITHMS: readonly string[] = ['argon2d', 'argon2i', 'argon2id'] satisfies Argon2Algorithm[];

/** What `crypto.argon2Sync` needs besides the password, and the tag it must give back. */
export interface StoredArgon2 {
  algorithm: Argon2Algorithm;
  parameters: Omit<Argon2Parameters, 'message'>;
  tag: Buffer;
}

/** A stored hash, or undefined for a string that is not an argon2 hash of version 0x13. */
export function readArgon2Hash(encoded: string): StoredArgon2 | undefined {
  let phc: ReturnType<typeof deserialize>;
  try {
    phc = deserialize(encoded);
  } catch {
    return undefined;
  }
  const { m, t, p } = phc.params ?? {};
  const [memory, passes, parallelism] = [wholeNumber(m), wholeNumber(t), wholeNumber(p)];
  if (!ALGORITHMS.includes(phc.id) || phc.version !== VERSION || !phc.salt || !phc.hash) return undefined;
  if (memory === undefined || passes === undefined || parallelism === undefined) return undefined;
  return {
    algorithm: phc.id as Argon2Algorithm,
    parameters: { nonce: phc.salt, parallelism, tagLength: phc.hash.length, memory, passes },
    tag: phc.hash,
  };
}

/** A PHC parameter's value as a whole number, or undefined for anything else ("abc", "", "1.5", none). */
function wholeNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : undefined;
}

/** A new argon2id hash's parameters (a fresh salt), and the PHC string for the tag they give. */
export function newArgon2idHash(
  memoryCost: number,
  timeCost: number,
): { parameters: Omit<Argon2Parameters, 'message'>; encode: (tag: Buffer) => string } {
  const salt = randomBytes(SALT_BYTES);
  return {
    parameters: { nonce: salt, parallelism: 1, tagLength: TAG_BYTES, memory: memoryCost, passes: timeCost },
    encode: (tag) => serialize({ id: 'argon2id', version: VERSION, params: { m: memoryCost, p: 1, t: timeCost }, salt, hash: tag }),
  };
}
