import { describe, expect, it } from 'vitest';
import { displayDomainName, toSearchTerm, toStoredDomainName } from './names.ts';

describe('toStoredDomainName', () => {
  it('stores lower-case ASCII with IDN labels in punycode', () => {
    expect(toStoredDomainName('Bücher.Example')).toBe('xn--bcher-kva.example');
    expect(toStoredDomainName('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
    expect(toStoredDomainName(' EXAMPLE.com. ')).toBe('example.com');
    expect(toStoredDomainName('sub.domain.co.uk')).toBe('sub.domain.co.uk');
    expect(toStoredDomainName('münchen.xn--p1ai')).toBe('xn--mnchen-3ya.xn--p1ai');
    expect(toStoredDomainName('москва.рф')).toBe('xn--80adxhks.xn--p1ai');
    expect(displayDomainName('xn--bcher-kva.example')).toBe('bücher.example');
  });

  it('refuses what is not a registrable host name', () => {
    for (const name of [
      '',
      'localhost',
      'example',
      '192.0.2.1',
      '-a.com',
      'a-.com',
      'a_b.com',
      'a..com',
      '.com',
      'a.b c',
      'xn--zz.com',
      'ex$.com',
      '*.example.com',
      'example.123',
      `${'a'.repeat(64)}.com`,
      `${'a.'.repeat(127)}com`,
    ]) {
      expect(toStoredDomainName(name), name).toBeUndefined();
    }
  });
});

describe('toSearchTerm', () => {
  it('searches in the stored spelling', () => {
    expect(toSearchTerm(' Harbor ')).toBe('harbor');
    expect(toSearchTerm('bücher')).toBe('xn--bcher-kva');
    expect(toSearchTerm('%')).toBeUndefined();
    expect(toSearchTerm('a b')).toBeUndefined();
  });
});
