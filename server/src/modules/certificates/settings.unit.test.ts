import { describe, expect, it } from 'vitest';
import { platformNames } from './settings.ts';

describe("the panel's own names", () => {
  it("are BERTH_PUBLIC_URL's host and webmail's, where a CA would certify them", () => {
    expect(platformNames({ BERTH_PUBLIC_URL: 'https://Panel.Example.com:8443/', BERTH_WEBMAIL_URL: undefined })).toEqual([
      'panel.example.com',
      'webmail.panel.example.com',
    ]);
    expect(platformNames({ BERTH_PUBLIC_URL: 'https://panel.example.com/', BERTH_WEBMAIL_URL: 'https://mail.example.net/' })).toEqual([
      'panel.example.com',
      'mail.example.net',
    ]);
    expect(platformNames({ BERTH_PUBLIC_URL: undefined, BERTH_WEBMAIL_URL: undefined })).toEqual([]);
    // An address, this machine's own names and a single label are never asked of a CA.
    expect(platformNames({ BERTH_PUBLIC_URL: 'http://192.0.2.7:3000/', BERTH_WEBMAIL_URL: 'https://webmail.localhost/' })).toEqual([]);
    expect(platformNames({ BERTH_PUBLIC_URL: 'http://localhost:3000/', BERTH_WEBMAIL_URL: 'https://[2001:db8::1]/' })).toEqual([]);
    expect(platformNames({ BERTH_PUBLIC_URL: 'http://intranet/', BERTH_WEBMAIL_URL: 'http://intranet:8080/' })).toEqual([]);
  });
});
