import { createECDH, createHash } from 'node:crypto';

/**
 * DNSSEC keys as PowerDNS keeps them (its `cryptokeys` table, private key in BIND's v1.2 text
 * format), and the DS record a registrar needs, computed here so the panel shows it without a
 * daemon at hand. One combined signing key (flags 257) with ECDSA P-256/SHA-256 (algorithm 13):
 * small signatures, and what RFC 8624 recommends for signing.
 */
export const DNSSEC_ALGORITHM = 13;
export const CSK_FLAGS = 257;
const DIGEST_SHA256 = 2;

export interface DsRecord {
  key_tag: number;
  algorithm: number;
  digest_type: number;
  digest: string;
}

/** A new P-256 key in PowerDNS's private key format. */
export function newSigningKey(): string {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return [
    'Private-key-format: v1.2',
    `Algorithm: ${DNSSEC_ALGORITHM} (ECDSAP256SHA256)`,
    // Always 32 bytes: a scalar with leading zero bytes comes back shorter.
    `PrivateKey: ${Buffer.concat([Buffer.alloc(32), ecdh.getPrivateKey()])
      .subarray(-32)
      .toString('base64')}`,
    '',
  ].join('\n');
}

/** The 64-byte public key (X ‖ Y) of a key in PowerDNS's format. */
export function publicKeyOf(privateKeyFile: string): Buffer {
  const match = /^PrivateKey:\s*(\S+)\s*$/m.exec(privateKeyFile);
  if (!match?.[1]) throw new Error('not a PowerDNS private key');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(match[1], 'base64'));
  // Uncompressed point: 0x04, then X and Y.
  return ecdh.getPublicKey().subarray(1);
}

/** DNSKEY RDATA: flags, protocol 3, algorithm, public key (RFC 4034 §2.1). */
export function dnskeyRdata(flags: number, publicKey: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(flags, 0);
  head.writeUInt8(3, 2);
  head.writeUInt8(DNSSEC_ALGORITHM, 3);
  return Buffer.concat([head, publicKey]);
}

/** The key tag of RFC 4034 Appendix B. */
export function keyTag(rdata: Buffer): number {
  let sum = 0;
  for (let i = 0; i < rdata.length; i++) sum += i & 1 ? rdata[i]! : rdata[i]! << 8;
  sum += (sum >> 16) & 0xffff;
  return sum & 0xffff;
}

/** A name in canonical wire format: lower-case labels, each after its length, then the root. */
function wireName(name: string): Buffer {
  const labels = name.toLowerCase().replace(/\.$/, '').split('.').filter(Boolean);
  return Buffer.concat([
    ...labels.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'ascii')])),
    Buffer.from([0]),
  ]);
}

/** The DS record for the parent zone: SHA-256 over owner name and DNSKEY RDATA (RFC 4509). */
export function dsOf(zone: string, flags: number, privateKeyFile: string): DsRecord {
  const rdata = dnskeyRdata(flags, publicKeyOf(privateKeyFile));
  const digest = createHash('sha256')
    .update(Buffer.concat([wireName(zone), rdata]))
    .digest('hex')
    .toUpperCase();
  return { key_tag: keyTag(rdata), algorithm: DNSSEC_ALGORITHM, digest_type: DIGEST_SHA256, digest };
}
