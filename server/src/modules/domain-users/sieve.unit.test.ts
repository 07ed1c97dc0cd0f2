import { describe, expect, it } from 'vitest';
import { autoreplyScript, sieveString } from './sieve.ts';

describe('the autoresponder Sieve script', () => {
  it('escapes what users type, so a quote or backslash cannot end the string and add commands', () => {
    expect(sieveString('say "hi"\\ ; discard;')).toBe('"say \\"hi\\"\\\\ ; discard;"');
    const script = autoreplyScript({
      subject: 'Away"; discard; "',
      body: 'Back on Monday.\nJana',
      intervalDays: 3,
      startsOn: null,
      endsOn: null,
    });
    expect(script).toBe('require ["vacation"];\r\nvacation :days 3 :subject "Away\\"; discard; \\"" "Back on Monday.\r\nJana";\r\n');
  });

  it('answers only between the dates set, either of which may be open', () => {
    const both = autoreplyScript({ subject: 'Away', body: 'x', intervalDays: 1, startsOn: '2026-12-20', endsOn: '2027-01-03' });
    expect(both).toContain('require ["vacation", "date", "relational"];');
    expect(both).toContain('if allof (currentdate :value "ge" "date" "2026-12-20", currentdate :value "le" "date" "2027-01-03") {');
    const from = autoreplyScript({ subject: 'Away', body: 'x', intervalDays: 1, startsOn: '2026-12-20', endsOn: null });
    expect(from).toContain('if allof (currentdate :value "ge" "date" "2026-12-20") {');
    expect(() =>
      autoreplyScript({ subject: 'a', body: 'b', intervalDays: 1, startsOn: '2026-12-20" } discard; {', endsOn: null }),
    ).toThrow();
  });

  it('keeps the interval within what Dovecot accepts (1 to 30 days)', () => {
    expect(autoreplyScript({ subject: 'a', body: 'b', intervalDays: 0, startsOn: null, endsOn: null })).toContain(':days 1 ');
    expect(autoreplyScript({ subject: 'a', body: 'b', intervalDays: 90, startsOn: null, endsOn: null })).toContain(':days 30 ');
  });
});
