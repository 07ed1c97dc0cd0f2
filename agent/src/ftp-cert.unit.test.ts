import { describe, expect, it } from 'vitest';
import { certificateFor } from './ftp-cert.ts';

const sites = [
  { hosts: ['example.com', 'www.example.com'], tls: '/run/certificates/1' },
  { hosts: ['shop.example.com', 'www.shop.example.com', 'eu.store.shop.example.com'], tls: '/run/certificates/2' },
  { hosts: ['plain.example', 'www.plain.example'], tls: null },
];

describe("FTPS: the certificate for the name the client asked for (pure-certd's program)", () => {
  it('is the certificate of the site that answers the name, as nginx picks it', () => {
    expect(certificateFor(sites, 'example.com')).toBe('/run/certificates/1');
    expect(certificateFor(sites, 'FTP.Example.com.')).toBe('/run/certificates/1');
    // The more specific site wins.
    expect(certificateFor(sites, 'www.shop.example.com')).toBe('/run/certificates/2');
    // An alias of more than one label is a name of its own.
    expect(certificateFor(sites, 'eu.store.shop.example.com')).toBe('/run/certificates/2');
  });

  it('is the default one for a name more than a label below a site (its certificate covers its wildcard only)', () => {
    expect(certificateFor(sites, 'webmail.panel.example.com')).toBeNull();
    expect(certificateFor(sites, 'a.www.shop.example.com')).toBeNull();
  });

  it('is the default one for a site without its own, a name no site has, or a name that is not a host name', () => {
    expect(certificateFor(sites, 'plain.example')).toBeNull();
    expect(certificateFor(sites, 'other.test')).toBeNull();
    expect(certificateFor(sites, 'notexample.com')).toBeNull();
    for (const name of ['', '../example.com', 'example.com\naction:strict', 'a b.example.com'])
      expect(certificateFor(sites, name)).toBeNull();
  });
});
