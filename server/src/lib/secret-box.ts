import { createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isSealed, keyIdOf, openWith, purposeKey, SealedError, sealWith } from '@berth/contracts/sealed';

/*
 * Secrets the server must read back (TOTP seeds) are stored encrypted with AES-256-GCM under a
 * key that never sits in the database: from configuration (BERTH_SECRET_KEY), or generated once
 * into the data directory with mode 0600. Each ciphertext names its key, so keys can rotate: put
 * the new key in BERTH_SECRET_KEY and the old one in BERTH_SECRET_KEYS_OLD; values are
 * re-encrypted under the new key as they are read (docs/secrets.md).
 */

const KEY_FILE = 'secret.key';

export class SecretBoxError extends SealedError {}

function parseKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new SecretBoxError('A secret key is 32 bytes, written as 64 hex digits or in base64.');
  return key;
}

export class SecretBox {
  private readonly current: { id: string; key: Buffer };
  private readonly byId: Map<string, Buffer>;

  private readonly old: Buffer[];

  constructor(current: Buffer, old: Buffer[] = []) {
    this.current = { id: keyIdOf(current), key: current };
    this.old = old;
    this.byId = new Map([current, ...old].map((key) => [keyIdOf(key), key]));
  }

  /**
   * A box for one purpose (HKDF of each key): what it seals only it opens, so a daemon given it
   * (the web agent, certificate keys) can open nothing else the server keeps.
   */
  derive(purpose: string): SecretBox {
    return new SecretBox(
      purposeKey(this.current.key, purpose),
      this.old.map((key) => purposeKey(key, purpose)),
    );
  }

  /** The keys as a daemon's settings carry them (base64, the current one first). */
  exportKeys(): string {
    return [this.current.key, ...this.old].map((key) => key.toString('base64')).join(',');
  }

  /** The key from configuration, else the one in the data directory (made on first use). */
  static load(options: { key?: string | undefined; oldKeys?: string | undefined; dataDir: string }): SecretBox {
    const old = (options.oldKeys ?? '')
      .split(',')
      .filter((text) => text.trim())
      .map(parseKey);
    if (options.key) return new SecretBox(parseKey(options.key), old);
    const file = path.join(path.resolve(options.dataDir), KEY_FILE);
    if (!existsSync(file)) {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    }
    chmodSync(file, 0o600);
    return new SecretBox(parseKey(readFileSync(file, 'utf8')), old);
  }

  /** A tag of `value` under the current key for one purpose (an address only this server makes). */
  sign(purpose: string, value: string): string {
    return createHmac('sha256', this.current.key).update(`${purpose}\n`).update(value).digest('base64url').slice(0, 22);
  }

  seal(plain: string): string {
    return sealWith(this.current.key, plain);
  }

  /** The plain text of a sealed value; a value stored before encryption is answered as it is. */
  open(stored: string): string {
    return this.isSealed(stored) ? openWith(this.byId, stored) : stored;
  }

  isSealed(stored: string): boolean {
    return isSealed(stored);
  }

  /** Whether `stored` should be written again: not encrypted yet, or under an old key. */
  needsReseal(stored: string): boolean {
    return !this.isSealed(stored) || stored.split(':')[1] !== this.current.id;
  }
}
