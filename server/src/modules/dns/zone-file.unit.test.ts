import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '@berth/contracts';
import { toZoneFile } from './zone-file.ts';

const record = (fields: Partial<DnsRecord> & Pick<DnsRecord, 'name' | 'type' | 'content'>): DnsRecord => ({
  id: 1,
  fqdn: '',
  ttl: 3600,
  priority: null,
  disabled: false,
  created_at: '',
  updated_at: '',
  ...fields,
});

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

describe('toZoneFile', () => {
  it('writes $ORIGIN, $TTL, the SOA and each record in master-file syntax', () => {
    const text = toZoneFile({
      zone: 'example.com',
      soa,
      records: [
        record({ name: '@', type: 'A', content: '192.0.2.1' }),
        record({ name: '@', type: 'MX', content: 'mail.example.com', priority: 10 }),
        record({ name: 'www', type: 'CNAME', content: 'example.com' }),
        record({ name: '_sip._tcp', type: 'SRV', content: '5 5060 sip.example.com', priority: 10 }),
        record({ name: '@', type: 'CAA', content: '0 issue "letsencrypt.org"' }),
        record({ name: 'old', type: 'A', content: '192.0.2.9', disabled: true }),
      ],
    });
    expect(text.split('\n')).toEqual([
      '; Zone example.com. exported by Berth, SOA serial 2026112601',
      '$ORIGIN example.com.',
      '$TTL 3600',
      '@\t3600\tIN\tSOA\tns1.berth.example. hostmaster.berth.example. 2026112601 10800 3600 604800 3600',
      '@\t3600\tIN\tA\t192.0.2.1',
      '@\t3600\tIN\tMX\t10 mail.example.com.',
      'www\t3600\tIN\tCNAME\texample.com.',
      '_sip._tcp\t3600\tIN\tSRV\t10 5 5060 sip.example.com.',
      '@\t3600\tIN\tCAA\t0 issue "letsencrypt.org"',
      '; (off the air) old\t3600\tIN\tA\t192.0.2.9',
      '',
    ]);
  });

  it('splits long TXT text into quoted strings of at most 255 bytes, escaping quotes', () => {
    const dkim = `v=DKIM1; k=rsa; p=${'A'.repeat(400)}`;
    const text = toZoneFile({
      zone: 'example.com',
      soa,
      records: [record({ name: 'x', type: 'TXT', content: dkim }), record({ name: 'q', type: 'TXT', content: 'say "hi" \\ bye' })],
    });
    const [long, quoted] = text.trimEnd().split('\n').slice(-2);
    const strings = [...(long ?? '').matchAll(/"([^"]*)"/g)].map((match) => match[1] ?? '');
    expect(strings.map((s) => s.length)).toEqual([255, dkim.length - 255]);
    expect(strings.join('')).toBe(dkim);
    expect(quoted).toBe('q\t3600\tIN\tTXT\t"say \\"hi\\" \\\\ bye"');
  });
});
