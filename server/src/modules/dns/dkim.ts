import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPair);

/**
 * The purpose DKIM private keys are sealed for (SecretBox.derive): the mail agent, which writes them
 * for the signer (daemons/mail-dkim.ts), holds this key and opens nothing else the server keeps.
 */
export const DKIM_KEYS_PURPOSE = 'dkim-keys';

/** RSA 2048: what every receiver verifies (RFC 8301 requires at least 1024, 2048 is the norm). */
export const DKIM_KEY_BITS = 2048;

export interface DkimKeyPair {
  selector: string;
  /** Base64 of the DER SubjectPublicKeyInfo: the `p=` of the TXT record. */
  publicKey: string;
  /** PKCS #8 PEM, for a signer. */
  privateKeyPem: string;
}

/** The selector names the month the key was made (`berth202611`), so a later key gets a name of its own. */
export const dkimSelector = (now: Date): string => `berth${now.getUTCFullYear()}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;

/** A new key pair, made on the thread pool (about 40 ms of CPU) so the event loop goes on meanwhile. */
export async function newDkimKey(now: Date): Promise<DkimKeyPair> {
  const { publicKey, privateKey } = await generate('rsa', {
    modulusLength: DKIM_KEY_BITS,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { selector: dkimSelector(now), publicKey: publicKey.toString('base64'), privateKeyPem: privateKey };
}

/** The owner name of the key's TXT record, relative to the zone. */
export const dkimRecordName = (selector: string): string => `${selector}._domainkey`;

/** The key's TXT text (RFC 6376 section 3.6.1). */
export const dkimRecordText = (publicKey: string): string => `v=DKIM1; k=rsa; p=${publicKey}`;
