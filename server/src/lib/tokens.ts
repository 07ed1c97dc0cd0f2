import { hash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe: session ids and other bearer secrets. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/**
 * Only hashes of bearer secrets are stored, so a database leak does not leak sessions. One call, not
 * a Hash object's three: every sign-in and every signed-in request hashes a token.
 */
export const sha256 = (value: string): string => hash('sha256', value, 'hex');
