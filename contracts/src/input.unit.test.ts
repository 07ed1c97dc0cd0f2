import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idSchema } from './hosting.ts';
import { ID_MAX, isStorableText, textProblem } from './input.ts';

// Properties of the shared input rules, over generated values rather than picked examples: the
// server applies them to every field (server/src/http/input-guard.ts), so a hole here is a hole
// in every route.

/** Any sequence of UTF-16 code units: paired and lone surrogates, NUL, control characters. */
const anyUtf16 = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }).map((units) => String.fromCharCode(...units));

describe('storable text', () => {
  it('accepts exactly the strings PostgreSQL can store: UTF-8 round-trips and no NUL', () => {
    fc.assert(
      fc.property(anyUtf16, (value) => {
        const roundTrips = Buffer.from(value, 'utf8').toString('utf8') === value;
        expect(isStorableText(value)).toBe(roundTrips && !value.includes('\u0000'));
      }),
      { numRuns: 5_000 },
    );
  });

  it('names NUL first wherever it stands', () => {
    fc.assert(
      fc.property(anyUtf16, anyUtf16, (before, after) => {
        expect(textProblem(`${before}\u0000${after}`)).toBe('validation.nul');
      }),
    );
  });

  it('accepts every string of whole Unicode characters without NUL', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (value) => {
        fc.pre(!value.includes('\u0000'));
        expect(textProblem(value)).toBeNull();
      }),
    );
  });
});

describe('ids', () => {
  it('accepts an integer exactly when it is a key PostgreSQL integer columns hold', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constantFrom(0, 1, ID_MAX, ID_MAX + 1)), (value) => {
        expect(idSchema.safeParse(value).success).toBe(value >= 1 && value <= ID_MAX);
        // Path and query ids arrive as text.
        expect(idSchema.safeParse(String(value)).success).toBe(value >= 1 && value <= ID_MAX);
      }),
    );
  });

  it('refuses fractions, non-finite numbers and text that is not a number', () => {
    fc.assert(
      fc.property(fc.oneof(fc.double({ noInteger: true }), fc.constantFrom(Number.NaN, Infinity, -Infinity)), (value) => {
        expect(idSchema.safeParse(value).success).toBe(false);
      }),
    );
    fc.assert(
      fc.property(
        fc.string().filter((text) => !/^\s*[+-]?(\d+\.?\d*(e[+-]?\d+)?|0x[\da-f]+|0b[01]+|0o[0-7]+)?\s*$/i.test(text)),
        (text) => {
          expect(idSchema.safeParse(text).success).toBe(false);
        },
      ),
    );
  });
});
