import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: session ids and other bearer secrets. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** Only hashes of bearer secrets are stored, so a database leak does not leak sessions. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
