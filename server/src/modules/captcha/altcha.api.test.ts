import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { openTestDatabase, type TestDatabase } from '../../../test/harness.ts';
import { ManualClock } from '../../lib/clock.ts';
import { ALTCHA_CHALLENGE_TTL_MS, createCaptchaVerifier, type CaptchaVerifier } from './service.ts';

const log = pino({ level: 'silent' });
const context = { hosts: ['localhost'], ip: '127.0.0.1' };

let database: TestDatabase;
let clock: ManualClock;
let verifier: CaptchaVerifier;

beforeEach(async () => {
  database = await openTestDatabase({ migrated: true });
  // A date far from the real one: expiry must follow the injected clock, not the system time.
  clock = new ManualClock(new Date('2025-03-01T12:00:00Z'));
  verifier = await createCaptchaVerifier({ db: database.db, clock, log });
});
afterEach(async () => {
  await database.close();
});

async function newChallenge(from: CaptchaVerifier = verifier): Promise<Challenge> {
  const challenge = await from.altchaChallenge();
  if (!challenge) throw new Error('no ALTCHA challenge');
  // Through JSON, as the widget receives it.
  return JSON.parse(JSON.stringify(challenge)) as Challenge;
}

/** What the widget puts in the form: base64(JSON({ challenge, solution })). */
async function solve(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('unsolved');
  return encode({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution });
}

const encode = (payload: unknown): string => btoa(JSON.stringify(payload));
const decode = (token: string) => JSON.parse(atob(token)) as { challenge: Challenge; solution: { counter: number; derivedKey: string } };

describe('ALTCHA', () => {
  it('publishes its challenge URL', () => {
    expect(verifier.publicConfig()).toEqual({ provider: 'altcha', challenge_url: '/api/captcha/altcha' });
  });

  it('hands out signed v2 challenges with a modest deterministic cost and a signed expiry', async () => {
    const challenge = await newChallenge();
    expect(challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', keyLength: 32 });
    expect(challenge.parameters.keySignature).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge.parameters.data?.expires).toBe((clock.now().getTime() + ALTCHA_CHALLENGE_TTL_MS) / 1000);
    const other = await newChallenge();
    expect(other.parameters.nonce).not.toBe(challenge.parameters.nonce);
  });

  it('accepts a solved challenge once; the same payload again is a replay', async () => {
    const token = await solve(await newChallenge());
    expect(await verifier.verify(token, context)).toEqual({ ok: true });
    expect(await verifier.verify(token, context)).toEqual({ ok: false, reason: 'invalid' });
    const rows = await database.db.selectFrom('captcha_uses').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(new Date(rows[0]?.expires_at ?? 0).getTime()).toBe(clock.now().getTime() + ALTCHA_CHALLENGE_TTL_MS);
  });

  it('lets only one of two simultaneous submissions of a payload through', async () => {
    const token = await solve(await newChallenge());
    const results = await Promise.all([verifier.verify(token, context), verifier.verify(token, context)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it('rejects altered payloads', async () => {
    const challenge = await newChallenge();
    const token = await solve(challenge);
    const payload = decode(token);
    const altered = [
      // Cheaper work claimed after the fact.
      { ...payload, challenge: { ...payload.challenge, parameters: { ...payload.challenge.parameters, cost: 1 } } },
      // A later expiry.
      {
        ...payload,
        challenge: {
          ...payload.challenge,
          parameters: { ...payload.challenge.parameters, data: { expires: 9_999_999_999 } },
        },
      },
      // Another derived key. (The counter is only the way to the key: the key signature proves
      // the work, so altcha-lib does not look at the counter.)
      { ...payload, solution: { ...payload.solution, derivedKey: '00'.repeat(32) } },
      { ...payload, solution: { ...payload.solution, derivedKey: 'zz' } },
      // Another signature, or none.
      { ...payload, challenge: { ...payload.challenge, signature: 'ab'.repeat(32) } },
      { ...payload, challenge: { parameters: payload.challenge.parameters } },
    ];
    for (const candidate of altered) {
      expect(await verifier.verify(encode(candidate), context)).toEqual({ ok: false, reason: 'invalid' });
    }
    // The genuine payload still works: the altered ones did not spend it.
    expect(await verifier.verify(token, context)).toEqual({ ok: true });
  });

  it('rejects a challenge signed with another key', async () => {
    const foreign = await createCaptchaVerifier({ db: database.db, clock, log, altchaHmacKey: 'somebody else' });
    const token = await solve(await newChallenge(foreign));
    expect(await verifier.verify(token, context)).toEqual({ ok: false, reason: 'invalid' });
    expect(await foreign.verify(token, context)).toEqual({ ok: true });
  });

  it('shares the generated key between instances through the database', async () => {
    const second = await createCaptchaVerifier({ db: database.db, clock, log });
    const token = await solve(await newChallenge(second));
    expect(await verifier.verify(token, context)).toEqual({ ok: true });
  });

  it('accepts a challenge until 10 minutes have passed, then rejects it', async () => {
    const early = await solve(await newChallenge());
    const late = await solve(await newChallenge());
    clock.advance(ALTCHA_CHALLENGE_TTL_MS - 1_000);
    expect(await verifier.verify(early, context)).toEqual({ ok: true });
    clock.advance(1_000);
    expect(await verifier.verify(late, context)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('forgets spent challenges once they have expired', async () => {
    const token = await solve(await newChallenge());
    expect(await verifier.verify(token, context)).toEqual({ ok: true });
    clock.advance(ALTCHA_CHALLENGE_TTL_MS + 1_000);
    const fresh = await solve(await newChallenge());
    expect(await verifier.verify(fresh, context)).toEqual({ ok: true });
    const rows = await database.db.selectFrom('captcha_uses').select('signature').execute();
    expect(rows).toEqual([{ signature: decode(fresh).challenge.signature }]);
  });

  it('calls an empty token missing and anything unreadable invalid', async () => {
    expect(await verifier.verify('', context)).toEqual({ ok: false, reason: 'missing' });
    expect(await verifier.verify('   ', context)).toEqual({ ok: false, reason: 'missing' });
    for (const token of ['garbage', btoa('null'), btoa('{"challenge":1}'), encode({ challenge: null, solution: null, test: true })]) {
      expect(await verifier.verify(token, context)).toEqual({ ok: false, reason: 'invalid' });
    }
    // A v1 payload (the old widget's format) is not accepted either.
    const v1 = { algorithm: 'SHA-256', challenge: 'ab'.repeat(32), number: 1, salt: 'x', signature: 'cd'.repeat(32), took: 1 };
    expect(await verifier.verify(encode(v1), context)).toEqual({ ok: false, reason: 'invalid' });
  });
});
