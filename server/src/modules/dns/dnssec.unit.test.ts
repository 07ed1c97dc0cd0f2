import { describe, expect, it } from 'vitest';
import { dnskeyRdata, dsOf, keyTag, newSigningKey, publicKeyOf } from './dnssec.ts';

// RFC 6605 §6.1: the published example of an ECDSA P-256 key, its DNSKEY and its SHA-256 DS.
const RFC6605_KEY = [
  'Private-key-format: v1.2',
  'Algorithm: 13 (ECDSAP256SHA256)',
  'PrivateKey: GU6SnQ/Ou+xC5RumuIUIuJZteXT2z0O/ok1s38Et6mQ=',
].join('\n');

describe('DNSSEC keys', () => {
  it('derives the DNSKEY, key tag and DS of the RFC 6605 example', () => {
    expect(publicKeyOf(RFC6605_KEY).toString('base64')).toBe(
      'GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==',
    );
    expect(dsOf('example.net', 257, RFC6605_KEY)).toEqual({
      key_tag: 55648,
      algorithm: 13,
      digest_type: 2,
      digest: 'B4C8C1FE2E7477127B27115656AD6256F424625BF5C1E2770CE6D6E37DF61D17',
    });
    // The owner name is compared case-insensitively and with or without its final dot.
    expect(dsOf('Example.NET.', 257, RFC6605_KEY)).toEqual(dsOf('example.net', 257, RFC6605_KEY));
  });

  it('makes a new P-256 key each time, in the format PowerDNS reads', () => {
    const [a, b] = [newSigningKey(), newSigningKey()];
    expect(a).toMatch(/^Private-key-format: v1\.2\nAlgorithm: 13 \(ECDSAP256SHA256\)\nPrivateKey: [A-Za-z0-9+/]{43}=\n$/);
    expect(a).not.toBe(b);
    expect(publicKeyOf(a)).toHaveLength(64);
    expect(keyTag(dnskeyRdata(257, publicKeyOf(a)))).toBeLessThan(65_536);
  });
});
