import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '@berth/contracts';
import { toZoneFile } from './zone-file.ts';
import { parseZoneFile } from './zone-import.ts';

const soa = {
  mname: 'ns1.berth.example',
  rname: 'hostmaster.berth.example',
  serial: 2026112601,
  refresh: 10800,
  retry: 3600,
  expire: 604800,
  minimum: 3600,
  ttl: 3600,
};

const shown = (text: string, zone = 'example.com') =>
  parseZoneFile(text, zone).records.map(
    ({ line, input }) => `${line}: ${input.name} ${input.ttl} ${input.type} ${input.priority ?? '-'} ${input.content}`,
  );

describe('parseZoneFile', () => {
  it('reads what the export writes, record for record', () => {
    const records: DnsRecord[] = [
      ['@', 'MX', 'mail.example.com', 10],
      ['www', 'A', '192.0.2.10', null],
      ['blog', 'CNAME', 'www.example.com', null],
      ['_sip._tcp', 'SRV', '5 5060 sip.example.com', 20],
      ['@', 'CAA', '0 issue "letsencrypt.org"', null],
      ['sel._domainkey', 'TXT', `v=DKIM1; k=rsa; p=${'A'.repeat(600)}`, null],
      ['quote', 'TXT', 'say \\ "hi"; not a comment', null],
    ].map(([name, type, content, priority], id) => ({
      id,
      name: name as string,
      fqdn: '',
      type: type as DnsRecord['type'],
      content: content as string,
      ttl: 300 + id,
      priority: priority as number | null,
      disabled: false,
      created_at: '',
      updated_at: '',
    }));
    const parsed = parseZoneFile(toZoneFile({ zone: 'example.com', soa, records }), 'example.com');
    expect(parsed.problems).toEqual([]);
    // The SOA stays the zone's own.
    expect(parsed.ignored).toBe(1);
    expect(parsed.records.map(({ input }) => input)).toEqual(
      records.map((record) => ({
        name: record.name,
        type: record.type,
        content: record.content,
        ttl: record.ttl,
        priority: record.priority,
      })),
    );
  });

  it('follows $ORIGIN, $TTL with units, blank owners, parentheses over lines and relative targets', () => {
    const text = [
      '$ORIGIN example.com.',
      '$TTL 1h',
      '@   IN  SOA ns1.other.net. hostmaster.other.net. (',
      '        2024010101 ; serial',
      '        7200 3600 1209600 300 )',
      '    IN  NS  ns1.other.net.',
      '    IN  MX  10 mail',
      'mail 300 IN A 192.0.2.25',
      '     IN 600 AAAA 2001:db8::25',
      'key IN TXT ( "v=DKIM1; k=rsa; "',
      '             "p=ABC" )',
      '$ORIGIN shop.example.com.',
      'www CNAME @',
      'api.example.com. 1d A 192.0.2.26',
    ].join('\n');
    expect(shown(text)).toEqual([
      '7: @ 3600 MX 10 mail.example.com',
      '8: mail 300 A - 192.0.2.25',
      '9: mail 600 AAAA - 2001:db8::25',
      '10: key 3600 TXT - v=DKIM1; k=rsa; p=ABC',
      '13: www.shop 3600 CNAME - shop.example.com',
      '14: api 86400 A - 192.0.2.26',
    ]);
    // The SOA and the apex NS of the old host are left out: the zone keeps its own.
    expect(parseZoneFile(text, 'example.com').ignored).toBe(2);
  });

  it('names each line it cannot read, and why', () => {
    const text = [
      '$INCLUDE other.zone',
      'www IN A 192.0.2.1',
      'ptr IN PTR host.example.com.',
      'other.net. IN A 192.0.2.2',
      'mx IN MX mail.example.com.',
      '$TTL soon',
      'open IN TXT "never closed',
    ].join('\n');
    const parsed = parseZoneFile(text, 'example.com');
    expect(parsed.records.map((r) => r.line)).toEqual([2]);
    expect(parsed.problems).toEqual([
      { line: 1, key: 'dns.import.directive', params: { directive: '$INCLUDE' } },
      { line: 3, key: 'dns.import.unsupported_type', params: { type: 'PTR' } },
      { line: 4, key: 'dns.import.outside_zone', params: { name: 'other.net' } },
      { line: 5, key: 'dns.import.bad_record', params: { type: 'MX' } },
      { line: 6, key: 'dns.import.bad_ttl' },
      { line: 7, key: 'dns.import.unbalanced' },
    ]);
  });

  it('decodes escapes in quoted text and accepts Windows line ends', () => {
    expect(shown('t IN TXT "a\\"b\\\\c\\059d"\r\nu IN TXT plain\r\n')).toEqual(['1: t 3600 TXT - a"b\\c;d', '2: u 3600 TXT - plain']);
  });
});
