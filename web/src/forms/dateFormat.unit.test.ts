import { describe, expect, it } from 'vitest';
import { dateFormatOf } from './dateFormat.ts';

describe('dateFormatOf', () => {
  it('writes dates as each language does, never mm/dd/yyyy outside English', () => {
    expect(dateFormatOf('cs')).toBe('DD. MM. YYYY');
    expect(dateFormatOf('de')).toBe('DD.MM.YYYY');
    expect(dateFormatOf('en')).toBe('MM/DD/YYYY');
  });
});
