import { describe, expect, it } from 'vitest';
import { HttpError } from '../../http/errors.ts';
import { relativeName, validateRecord, type RecordInput } from './records.ts';
import { dailySerialBase, nextSerial } from './zone.ts';

const ZONE = 'example.com';
const valid = (input: Partial<RecordInput> & Pick<RecordInput, 'type' | 'content'>) =>
  validateRecord({ name: '@', ttl: 3600, ...input }, ZONE);
const problems = (input: Partial<RecordInput> & Pick<RecordInput, 'type' | 'content'>) => {
  try {
    valid(input);
  } catch (error) {
    if (error instanceof HttpError) return Object.keys(error.fieldErrors ?? {});
    throw error;
  }
  return [];
};

describe('relativeName', () => {
  it('makes owner names relative to the zone', () => {
    expect(relativeName('@', ZONE)).toBe('@');
    expect(relativeName('example.com.', ZONE)).toBe('@');
    expect(relativeName('WWW.example.com', ZONE)).toBe('www');
    expect(relativeName('*.dev', ZONE)).toBe('*.dev');
    expect(relativeName('_dmarc', ZONE)).toBe('_dmarc');
    expect(relativeName('dev.*', ZONE)).toBeUndefined();
    expect(relativeName('a b', ZONE)).toBeUndefined();
    expect(relativeName(`${'a'.repeat(64)}`, ZONE)).toBeUndefined();
  });
});

describe('validateRecord', () => {
  it('answers records in canonical form', () => {
    expect(valid({ type: 'MX', content: 'MX1.Example.net.', priority: 5 })).toEqual({
      name: '@',
      type: 'MX',
      content: 'mx1.example.net',
      ttl: 3600,
      priority: 5,
    });
    expect(valid({ type: 'TXT', content: '"v=spf1 -all"' }).content).toBe('v=spf1 -all');
    expect(valid({ type: 'TXT', content: 'a "quoted" word' }).content).toBe('a "quoted" word');
    expect(valid({ type: 'CAA', content: '128 issuewild "ca.example"' }).content).toBe('128 issuewild "ca.example"');
    expect(valid({ type: 'CAA', content: '0 iodef mailto:security@example.com' }).content).toBe('0 iodef "mailto:security@example.com"');
    expect(valid({ name: '_xmpp._tcp', type: 'SRV', content: '0 5222 .', priority: 0 }).content).toBe('0 5222 .');
    expect(valid({ type: 'NS', content: 'ns1.bücher.de' }).content).toBe('ns1.xn--bcher-kva.de');
  });

  it('names the field of each problem', () => {
    expect(problems({ type: 'A', content: '1.2.3' })).toEqual(['content']);
    expect(problems({ type: 'A', content: '01.2.3.4' })).toEqual(['content']);
    expect(problems({ type: 'AAAA', content: '::g' })).toEqual(['content']);
    expect(problems({ type: 'CNAME', content: 'target.example.net' })).toEqual(['name']);
    expect(problems({ name: 'www', type: 'CNAME', content: 'single' })).toEqual(['content']);
    expect(problems({ type: 'MX', content: 'mx.example.net' })).toEqual(['priority']);
    expect(problems({ type: 'MX', content: '192.0.2.1', priority: 1 })).toEqual(['content']);
    expect(problems({ type: 'TXT', content: 'x', priority: 1 })).toEqual(['priority']);
    expect(problems({ type: 'TXT', content: 'x'.repeat(4001) })).toEqual(['content']);
    expect(problems({ name: '_sip', type: 'SRV', content: '1 2 x.example.net', priority: 1 })).toEqual(['name']);
    expect(problems({ name: '_sip._tcp', type: 'SRV', content: '1 70000 x.example.net', priority: 1 })).toEqual(['content']);
    expect(problems({ type: 'CAA', content: '1 issue "x"' })).toEqual(['content']);
    expect(problems({ type: 'CAA', content: '0 policy "x"' })).toEqual(['content']);
    expect(problems({ name: '*.x', type: 'NS', content: 'ns.example.net' })).toEqual(['name']);
    expect(problems({ name: 'a..b', type: 'MX', content: 'x' })).toEqual(['name', 'priority', 'content']);
  });
});

describe('SOA serial', () => {
  it('counts up within a day and starts each new day at YYYYMMDD00', () => {
    const day = new Date('2026-11-01T23:59:00Z');
    expect(dailySerialBase(day)).toBe(2026110100);
    expect(nextSerial(2026110100, day)).toBe(2026110101);
    expect(nextSerial(2026103199, day)).toBe(2026110100);
    expect(nextSerial(2026110199, day)).toBe(2026110200);
  });
});
