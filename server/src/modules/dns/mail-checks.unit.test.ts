import { describe, expect, it } from 'vitest';
import { DMARC_PROPOSAL, mailChecks, SPF_PROPOSAL, type CheckedRecord } from './mail-checks.ts';

const KEY = { selector: 'berth202611', public_key: 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAexample' };
let nextId = 1;
const record = (name: string, type: string, content: string, disabled = false): CheckedRecord => ({
  id: nextId++,
  name,
  type,
  content,
  disabled,
});
const states = (records: CheckedRecord[], key: typeof KEY | null = KEY) =>
  Object.fromEntries(mailChecks('example.com', records, key).map((c) => [c.kind, `${c.state}:${c.reason}`]));

describe('mailChecks', () => {
  it('finds everything missing in an empty zone and proposes each record', () => {
    const checks = mailChecks('example.com', [], KEY);
    expect(checks.map((c) => `${c.kind}:${c.state}`)).toEqual(['mx:missing', 'spf:missing', 'dkim:missing', 'dmarc:missing']);
    expect(checks.map((c) => c.proposal)).toEqual([
      { name: '@', type: 'MX', content: 'mail.example.com', ttl: 3600, priority: 10 },
      { name: '@', type: 'TXT', content: SPF_PROPOSAL, ttl: 3600, priority: null },
      { name: 'berth202611._domainkey', type: 'TXT', content: `v=DKIM1; k=rsa; p=${KEY.public_key}`, ttl: 3600, priority: null },
      { name: '_dmarc', type: 'TXT', content: DMARC_PROPOSAL, ttl: 3600, priority: null },
    ]);
  });

  it('is green when the proposals are in the zone with an address for the mail host', () => {
    const zone = [
      record('@', 'MX', 'mail.example.com'),
      record('mail', 'A', '192.0.2.25'),
      record('@', 'TXT', SPF_PROPOSAL),
      record('berth202611._domainkey', 'TXT', `v=DKIM1; k=rsa; p=${KEY.public_key}`),
      record('_dmarc', 'TXT', DMARC_PROPOSAL),
    ];
    const checks = mailChecks('example.com', zone, KEY);
    expect(checks.every((c) => c.state === 'ok' && c.proposal === null)).toBe(true);
    expect(checks.find((c) => c.kind === 'dkim')?.record_ids).toEqual([zone[3]?.id]);
  });

  it('warns about what receivers would treat as broken or weak', () => {
    expect(states([record('@', 'MX', 'mail.example.com')]).mx).toBe('warning:mx_no_address');
    expect(states([record('@', 'MX', 'mx.provider.example')]).mx).toBe('ok:mx_ok');
    expect(states([record('@', 'TXT', 'v=spf1 mx ~all'), record('@', 'TXT', 'v=spf1 a -all')]).spf).toBe('warning:spf_multiple');
    expect(states([record('@', 'TXT', 'v=spf1 +all')]).spf).toBe('warning:spf_allows_all');
    expect(states([record('@', 'TXT', 'v=spf1 mx')]).spf).toBe('warning:spf_no_all');
    expect(states([record('@', 'TXT', 'v=spf1 redirect=_spf.provider.example')]).spf).toBe('ok:spf_ok');
    expect(states([record('@', 'TXT', 'google-site-verification=abc')]).spf).toBe('missing:spf_missing');
    expect(states([record('berth202611._domainkey', 'TXT', 'v=DKIM1; k=rsa; p=MIIBother')]).dkim).toBe('warning:dkim_other_key');
    expect(states([], null).dkim).toBe('missing:dkim_no_key');
    expect(states([record('_dmarc', 'TXT', 'v=DMARC1; p=none')]).dmarc).toBe('warning:dmarc_monitor');
    expect(states([record('_dmarc', 'TXT', 'v=DMARC1; rua=mailto:x@example.com')]).dmarc).toBe('warning:dmarc_invalid');
    expect(states([record('_dmarc', 'TXT', 'v=DMARC1; p=reject'), record('_dmarc', 'TXT', 'v=DMARC1; p=none')]).dmarc).toBe(
      'warning:dmarc_multiple',
    );
  });

  it('does not count records taken off the air', () => {
    expect(states([record('@', 'TXT', SPF_PROPOSAL, true), record('_dmarc', 'TXT', DMARC_PROPOSAL, true)])).toMatchObject({
      spf: 'missing:spf_missing',
      dmarc: 'missing:dmarc_missing',
    });
  });
});
