import { describe, expect, it } from 'vitest';
import type { DnsRecord } from '@berth/contracts';
import { contentField, emptyRecordForm, formToPayload, recordFormSchema, recordToForm } from './recordForm.ts';

const stored = (record: Pick<DnsRecord, 'type' | 'name' | 'content'> & Partial<DnsRecord>): DnsRecord => ({
  id: 1,
  fqdn: `${record.name}.example.com`,
  ttl: 3600,
  priority: null,
  disabled: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...record,
});

const schema = recordFormSchema({ required: 'required', ttlRange: 'ttl', priorityRange: 'priority', numberRange: 'number' });

/** What the dialog would send for these values, or the fields it would refuse. */
function submit(values: ReturnType<typeof emptyRecordForm>) {
  const parsed = schema.safeParse(values);
  if (!parsed.success) return { errors: parsed.error.issues.map((issue) => issue.path.join('.')) };
  return { payload: formToPayload(parsed.data) };
}

describe('the DNS record dialog', () => {
  it('sends a priority for MX and SRV only', () => {
    expect(submit({ ...emptyRecordForm('A'), name: 'www', content: ' 192.0.2.10 ' })).toEqual({
      payload: { name: 'www', type: 'A', content: '192.0.2.10', ttl: 3600, priority: null },
    });
    expect(submit({ ...emptyRecordForm('MX'), content: 'mail.example.com', priority: '5', ttl: '300' })).toEqual({
      payload: { name: '@', type: 'MX', content: 'mail.example.com', ttl: 300, priority: 5 },
    });
  });

  it('joins SRV and CAA parts into the content the API reads, and splits them back', () => {
    const srv = { ...emptyRecordForm('SRV'), name: '_sip._tcp', priority: '20', weight: '5', port: '5060', target: 'sip.example.com' };
    expect(submit(srv)).toEqual({
      payload: { name: '_sip._tcp', type: 'SRV', content: '5 5060 sip.example.com', ttl: 3600, priority: 20 },
    });
    expect(recordToForm(stored({ type: 'SRV', name: '_sip._tcp', content: '5 5060 sip.example.com', priority: 20 }))).toMatchObject({
      priority: '20',
      weight: '5',
      port: '5060',
      target: 'sip.example.com',
    });

    const caa = { ...emptyRecordForm('CAA'), caaFlags: '128' as const, caaTag: 'iodef' as const, caaValue: 'mailto:ca@example.com' };
    expect(submit(caa)).toEqual({
      payload: { name: '@', type: 'CAA', content: '128 iodef "mailto:ca@example.com"', ttl: 3600, priority: null },
    });
    expect(recordToForm(stored({ type: 'CAA', name: '@', content: '0 issue "letsencrypt.org"' }))).toMatchObject({
      caaFlags: '0',
      caaTag: 'issue',
      caaValue: 'letsencrypt.org',
    });
  });

  it('refuses what is missing or out of range on the field the type shows', () => {
    expect(submit({ ...emptyRecordForm('A'), content: '' })).toEqual({ errors: ['content'] });
    expect(submit({ ...emptyRecordForm('A'), content: '192.0.2.1', ttl: '59' })).toEqual({ errors: ['ttl'] });
    expect(submit({ ...emptyRecordForm('A'), content: '192.0.2.1', ttl: '604801' })).toEqual({ errors: ['ttl'] });
    expect(submit({ ...emptyRecordForm('MX'), content: 'mail.example.com', priority: '65536' })).toEqual({ errors: ['priority'] });
    expect(submit({ ...emptyRecordForm('SRV'), port: '', target: '' })).toEqual({ errors: ['port', 'target'] });
    // A priority left in the form of another type is not sent, so it is not checked either.
    expect(submit({ ...emptyRecordForm('TXT'), content: 'v=spf1 -all', priority: 'x' })).toHaveProperty('payload.priority', null);
  });

  it("puts the server's content errors on the part that holds them", () => {
    expect(contentField('A')).toBe('content');
    expect(contentField('SRV')).toBe('target');
    expect(contentField('CAA')).toBe('caaValue');
  });
});
