import { createCipheriv, createDecipheriv, createHash, hkdfSync } from 'node:crypto';
import { randomBytes } from 'node:crypto';

/*
 * Sealed text (AES-256-GCM, `v1:<key id>:<iv>:<tag>:<body>`): the server's SecretBox
 * (server/src/lib/secret-box.ts) and the web agent (agent/src/certificates.ts) share this one
 * format. Not exported from the package's index: the browser never loads it.
 */

export const SEALED_PREFIX = 'v1';

export class SealedError extends Error {}

export const keyIdOf = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

/** The keys a daemon's settings carry (SecretBox.exportKeys: base64, comma-separated), by their ids, for openWith. */
export const keysById = (exported: string | undefined): Map<string, Buffer> =>
  new Map(
    (exported ?? '')
      .split(',')
      .filter(Boolean)
      .map((text) => Buffer.from(text, 'base64'))
      .map((key) => [keyIdOf(key), key] as const),
  );

/** A key for one purpose only (HKDF-SHA256): who holds it opens that purpose's values and nothing else. */
export const purposeKey = (key: Buffer, purpose: string): Buffer =>
  Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `berth:${purpose}`, 32));

export function sealWith(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [SEALED_PREFIX, keyIdOf(key), iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
}

export const isSealed = (stored: string): boolean => stored.startsWith(`${SEALED_PREFIX}:`);

/** The plain text of a sealed value, by the key its id names among `keys`. */
export function openWith(keys: ReadonlyMap<string, Buffer>, stored: string): string {
  const [, id, iv, tag, body] = stored.split(':');
  const key = keys.get(id ?? '');
  if (!key) throw new SealedError(`No key ${id} to open a stored secret: is BERTH_SECRET_KEY (or BERTH_SECRET_KEYS_OLD) right?`);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv ?? '', 'base64'));
    decipher.setAuthTag(Buffer.from(tag ?? '', 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body ?? '', 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new SealedError('A stored secret does not open with its key: it was changed or the key is wrong.');
  }
}
