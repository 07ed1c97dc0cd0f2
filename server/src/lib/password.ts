import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';

export interface PasswordHasherOptions {
  memoryCost: number;
  timeCost: number;
}

/**
 * At most one hash per core at a time, in the whole process. libuv's pool has 4 threads: on a
 * 2-core server 4 memory-hard hashes at once take turns on the cores and evict each other's memory
 * from the caches, so each costs more CPU (4 raw verifies at a time: 7% fewer per second than 2;
 * logins 8% more per second with this limit: bench/README.md, item 4). A hash that waits starts as
 * soon as one ends. It also bounds the memory hashing holds to `memoryCost` per core.
 */
const hashing = pLimit(availableParallelism());

/** argon2id at or above the OWASP minimum (m = 19 MiB, t = 2, p = 1). */
export class PasswordHasher {
  private readonly options: PasswordHasherOptions;
  private dummyHash: Promise<string> | undefined;

  constructor(options: PasswordHasherOptions) {
    this.options = options;
  }

  hash(password: string): Promise<string> {
    return hashing(() =>
      argon2.hash(password, {
        type: argon2.argon2id,
        memoryCost: this.options.memoryCost,
        timeCost: this.options.timeCost,
        parallelism: 1,
      }),
    );
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await hashing(() => argon2.verify(hash, password));
    } catch {
      return false;
    }
  }

  /** Verifies against a throwaway hash so an unknown account costs the same time as a known one. */
  async verifyDummy(password: string): Promise<false> {
    this.dummyHash ??= this.hash(randomBytes(16).toString('hex'));
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
