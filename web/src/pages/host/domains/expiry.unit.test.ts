import { describe, expect, it } from 'vitest';
import { daysLeft, expiryInputValue, expiryState, punycodeOf } from './expiry.ts';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const at = (offset: number) => new Date(NOW + offset).toISOString();

describe('expiry of a domain', () => {
  it('is none, expired (as the server says), soon within 30 days, or later', () => {
    expect(expiryState({ expire_at: null, expired: false }, NOW)).toBe('none');
    expect(expiryState({ expire_at: at(-DAY), expired: true }, NOW)).toBe('expired');
    expect(expiryState({ expire_at: at(DAY), expired: false }, NOW)).toBe('soon');
    expect(expiryState({ expire_at: at(30 * DAY), expired: false }, NOW)).toBe('soon');
    expect(expiryState({ expire_at: at(30 * DAY + 1), expired: false }, NOW)).toBe('later');
  });

  it('counts whole days left, rounding up, never below 0', () => {
    expect(daysLeft(at(10 * DAY - 60_000), NOW)).toBe(10);
    expect(daysLeft(at(10 * DAY), NOW)).toBe(10);
    expect(daysLeft(at(1), NOW)).toBe(1);
    expect(daysLeft(at(-DAY), NOW)).toBe(0);
  });

  it('fills a date input with the UTC day, empty for none', () => {
    expect(expiryInputValue('2027-03-01T00:00:00.000Z')).toBe('2027-03-01');
    expect(expiryInputValue('2028-05-05T23:30:00-02:00')).toBe('2028-05-06');
    expect(expiryInputValue(null)).toBe('');
  });
});

describe('punycode preview', () => {
  it('spells IDN names the way DNS stores them', () => {
    expect(punycodeOf('Bücher.example')).toBe('xn--bcher-kva.example');
    expect(punycodeOf(' example.com. ')).toBe('example.com');
  });

  it('gives nothing for what is no host name', () => {
    expect(punycodeOf('')).toBeUndefined();
    expect(punycodeOf('exa mple.com')).toBeUndefined();
    expect(punycodeOf('user@example.com')).toBeUndefined();
    expect(punycodeOf('example.com/path')).toBeUndefined();
  });
});
