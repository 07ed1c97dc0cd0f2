import { describe, expect, it } from 'vitest';
import { dateTimeFormat, numberFormat, setDefaultTimeZone } from './intlFormats.ts';

describe('Intl formatters', () => {
  it('are built once per language and options and format as a new one would', () => {
    const format = dateTimeFormat('de', { dateStyle: 'medium', timeZone: 'UTC' });
    expect(dateTimeFormat('de', { dateStyle: 'medium', timeZone: 'UTC' })).toBe(format);
    expect(dateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' })).not.toBe(format);
    expect(format.format(new Date('2027-03-01T00:00:00Z'))).toBe(
      new Intl.DateTimeFormat('de', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date('2027-03-01T00:00:00Z')),
    );
    expect(numberFormat('cs', { style: 'currency', currency: 'EUR' })).not.toBe(numberFormat('cs', { style: 'currency', currency: 'CZK' }));
  });

  it('throw for what the constructor refuses, every time (nothing is cached)', () => {
    expect(() => numberFormat('en', { style: 'currency', currency: 'not a currency' })).toThrow(RangeError);
    expect(() => numberFormat('en', { style: 'currency', currency: 'not a currency' })).toThrow(RangeError);
  });

  it("format in the visitor's zone while the server renders a page, unless a zone is asked for", () => {
    const noon = new Date('2027-03-01T12:00:00Z');
    setDefaultTimeZone('Pacific/Kiritimati');
    try {
      expect(dateTimeFormat('en', { timeStyle: 'short' }).format(noon)).toBe(
        new Intl.DateTimeFormat('en', { timeStyle: 'short', timeZone: 'Pacific/Kiritimati' }).format(noon),
      );
      expect(dateTimeFormat('en', { timeStyle: 'short', timeZone: 'UTC' }).format(noon)).toBe(
        new Intl.DateTimeFormat('en', { timeStyle: 'short', timeZone: 'UTC' }).format(noon),
      );
    } finally {
      setDefaultTimeZone(undefined);
    }
  });
});
