import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';

export interface PasswordHasherOptions {
  memoryCost: number;
  timeCost: number;
}

/** argon2id at or above the OWASP minimum (m = 19 MiB, t = 2, p = 1). */
export class PasswordHasher {
  private readonly options: PasswordHasherOptions;
  private dummyHash: Promise<string> | undefined;

  constructor(options: PasswordHasherOptions) {
    this.options = options;
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, {
      type: argon2.argon2id,
      memoryCost: this.options.memoryCost,
      timeCost: this.options.timeCost,
      parallelism: 1,
    });
  }

  async verify(hash: string, password: string): Promise<boolean> {
    try {
      return await argon2.verify(hash, password);
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
