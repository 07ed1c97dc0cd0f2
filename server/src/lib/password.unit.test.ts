import argon2 from 'argon2';
import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PasswordHasher } from './password.ts';

// Cheap parameters: the limit, not the hash's cost, is under test.
const hasher = new PasswordHasher({ memoryCost: 1024, timeCost: 1 });

afterEach(() => {
  vi.restoreAllMocks();
});

/** Counts how many of argon2's hashes and verifies run at the same time. */
function countInFlight() {
  const seen = { now: 0, most: 0, calls: 0 };
  for (const name of ['hash', 'verify'] as const) {
    const original = argon2[name] as (...args: unknown[]) => Promise<unknown>;
    vi.spyOn(argon2, name).mockImplementation((async (...args: unknown[]) => {
      seen.calls++;
      seen.most = Math.max(seen.most, ++seen.now);
      try {
        return await original(...args);
      } finally {
        seen.now--;
      }
    }) as never);
  }
  return seen;
}

describe('PasswordHasher', () => {
  it('runs at most one hash per core at a time, hashes and verifies together, and every one of 30 sent at once ends right', async () => {
    const password = 'correct horse battery staple';
    const hash = await hasher.hash(password);
    const inFlight = countInFlight();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        index % 3 === 0 ? hasher.hash(`${password} ${index}`) : hasher.verify(hash, index % 3 === 1 ? password : 'wrong'),
      ),
    );
    expect(inFlight.calls).toBe(30);
    // Verifies and hashes share one limit, and it is used: one per core at once, never more.
    expect(inFlight.most).toBe(availableParallelism());
    results.forEach((result, index) => {
      if (index % 3 === 0) expect(result).toMatch(/^\$argon2id\$/);
      else expect(result).toBe(index % 3 === 1);
    });
  });

  it('answers false for a hash it cannot read, and the limit is free again afterwards', async () => {
    expect(await hasher.verify('not a hash', 'x')).toBe(false);
    const hash = await hasher.hash('again');
    expect(await hasher.verify(hash, 'again')).toBe(true);
  });
});
