import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/*
 * Secrets the server must read back (TOTP seeds) are stored encrypted with AES-256-GCM under a
 * key that never sits in the database: from configuration (BERTH_SECRET_KEY), or generated once
 * into the data directory with mode 0600. Each ciphertext names its key, so keys can rotate: put
 * the new key in BERTH_SECRET_KEY and the old one in BERTH_SECRET_KEYS_OLD; values are
 * re-encrypted under the new key as they are read (docs/secrets.md).
 */

const PREFIX = 'v1';
const KEY_FILE = 'secret.key';

export class SecretBoxError extends Error {}

const keyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

function parseKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new SecretBoxError('A secret key is 32 bytes, written as 64 hex digits or in base64.');
  return key;
}

export class SecretBox {
  private readonly current: { id: string; key: Buffer };
  private readonly byId: Map<string, Buffer>;

  constructor(current: Buffer, old: Buffer[] = []) {
    this.current = { id: keyId(current), key: current };
    this.byId = new Map([current, ...old].map((key) => [keyId(key), key]));
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
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [PREFIX, this.current.id, iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
  }

  /** The plain text of a sealed value; a value stored before encryption is answered as it is. */
  open(stored: string): string {
    if (!this.isSealed(stored)) return stored;
    const [, id, iv, tag, body] = stored.split(':');
    const key = this.byId.get(id ?? '');
    if (!key) throw new SecretBoxError(`No key ${id} to open a stored secret: is BERTH_SECRET_KEY (or BERTH_SECRET_KEYS_OLD) right?`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv ?? '', 'base64'));
      decipher.setAuthTag(Buffer.from(tag ?? '', 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body ?? '', 'base64')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('A stored secret does not open with its key: it was changed or the key is wrong.');
    }
  }

  isSealed(stored: string): boolean {
    return stored.startsWith(`${PREFIX}:`);
  }

  /** Whether `stored` should be written again: not encrypted yet, or under an old key. */
  needsReseal(stored: string): boolean {
    return !this.isSealed(stored) || stored.split(':')[1] !== this.current.id;
  }
}
