import { describe, expect, it } from 'vitest';
import { renewalTime } from './issued.ts';

const at = (iso: string) => new Date(iso);

describe('when a certificate is renewed', () => {
  it('is at two thirds of its lifetime', () => {
    expect(renewalTime(at('2026-01-01T00:00:00Z'), at('2026-04-01T00:00:00Z'), at('2026-01-01T00:05:00Z'))).toEqual(
      at('2026-03-02T00:00:00Z'),
    );
  });

  it('is never at once when the CA’s clock runs ahead: two thirds of what is left', () => {
    expect(renewalTime(at('2026-01-01T00:00:00Z'), at('2026-04-01T00:00:00Z'), at('2026-03-02T00:00:00Z'))).toEqual(
      at('2026-03-22T00:00:00Z'),
    );
  });

  it('waits an hour for one that has ended by this clock', () => {
    expect(renewalTime(at('2026-01-01T00:00:00Z'), at('2026-04-01T00:00:00Z'), at('2026-05-01T00:00:00Z'))).toEqual(
      at('2026-05-01T01:00:00Z'),
    );
  });
});
