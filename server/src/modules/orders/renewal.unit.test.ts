import { describe, expect, it } from 'vitest';
import { renewedExpiry } from './provisioning.ts';

const at = (iso: string) => new Date(`${iso}T00:00:00.000Z`);
const day = (date: Date) => date.toISOString().slice(0, 10);

describe('a renewal extends a domain', () => {
  const now = at('2026-11-24');

  it('from the old expiry when the domain has just expired, as registries do', () => {
    expect(day(renewedExpiry(at('2026-10-07'), 12, now))).toBe('2027-10-07');
    expect(day(renewedExpiry(at('2026-10-07'), 120, now))).toBe('2036-10-07');
  });

  it('from the old expiry while the domain still runs', () => {
    expect(day(renewedExpiry(at('2027-01-15'), 12, now))).toBe('2028-01-15');
    expect(day(renewedExpiry('2027-01-15T00:00:00.000Z', 24, now))).toBe('2029-01-15');
  });

  it('from now when even the extended end has passed, or there was no expiry', () => {
    expect(day(renewedExpiry(at('2024-06-01'), 12, now))).toBe('2027-11-24');
    expect(day(renewedExpiry(null, 12, now))).toBe('2027-11-24');
  });
});
