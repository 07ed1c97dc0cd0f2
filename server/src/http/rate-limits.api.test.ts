import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createCustomer, createTestApp, login, type TestApp } from '../../test/harness.ts';
import { RATE_LIMITS, registerRateLimits } from './rate-limits.ts';

// Every route declares a preset; a burst from one caller gets exactly the preset's allowance and
// then 429 with Retry-After, per route and per caller; bad input does not use the allowance; with
// Redis the count is shared by every instance.

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});
const open = async (env: Record<string, string> = {}) => {
  const app = await createTestApp({ env });
  apps.push(app);
  return app;
};

// Wrong logins (422) for addresses without accounts: the account throttles stay out of the way,
// so every 429 below is the rate limit's.
let attempt = 0;
const wrongLogin = (t: TestApp, ip: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: `nobody${++attempt}@example.com`, password: 'not the password at all', remember: false },
    remoteAddress: ip,
  });

const statuses = (answers: { statusCode: number }[]) => {
  const counts: Record<number, number> = {};
  for (const answer of answers) counts[answer.statusCode] = (counts[answer.statusCode] ?? 0) + 1;
  return counts;
};

describe('rate limits', () => {
  it('refuses to start when an /api route declares no preset', async () => {
    const app = Fastify();
    await registerRateLimits(app, { keyPrefix: 'x', log: app.log });
    expect(() => app.get('/api/forgotten', async () => 'ok')).toThrow(/declares no rate limit preset/);
    await app.close();
  });

  it('lets the auth allowance of one address through at once, then answers 429 with Retry-After; other addresses go on', async () => {
    const t = await open();
    const { max } = RATE_LIMITS.auth;
    const answers = await Promise.all(Array.from({ length: max + 10 }, () => wrongLogin(t, '198.51.100.7')));
    expect(statuses(answers)).toEqual({ 422: max, 429: 10 });
    // An allowed answer carries no counts (it must not differ between callers); a refusal does.
    expect(answers.find((answer) => answer.statusCode === 422)!.headers['x-ratelimit-remaining']).toBeUndefined();
    const refused = answers.find((answer) => answer.statusCode === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.json().message).toMatch(/^Too many requests\. Please try again in/);
    expect((await wrongLogin(t, '198.51.100.8')).statusCode).toBe(422);
    // Another route has its own count for the same address.
    const otp = await t.app.inject({
      method: 'POST',
      url: '/api/password/otp',
      payload: { email: 'x@example.com' },
      remoteAddress: '198.51.100.7',
    });
    expect(otp.statusCode).not.toBe(429);
  });

  it('does not count input refused by validation', async () => {
    const t = await open();
    const bad = await Promise.all(
      Array.from({ length: RATE_LIMITS.auth.max + 5 }, () =>
        t.app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email: 'not an address' }, remoteAddress: '198.51.100.9' }),
      ),
    );
    expect(statuses(bad)).toEqual({ 422: RATE_LIMITS.auth.max + 5 });
    const valid = await t.app.inject({
      method: 'POST',
      url: '/api/password/forgot',
      payload: { email: 'x@example.com' },
      remoteAddress: '198.51.100.9',
    });
    expect(valid.statusCode).toBe(200);
  });

  it('counts a signed-in user as one caller on every address, apart from other users', async () => {
    const t = await open();
    await createCustomer(t, 'burst@example.com');
    await createCustomer(t, 'calm@example.com');
    const { cookie } = await login(t.app, 'burst@example.com', 'another long passphrase 42');
    const calm = (await login(t.app, 'calm@example.com', 'another long passphrase 42')).cookie;
    const { max } = RATE_LIMITS.checkout;
    const checkout = (sessionCookie: string, index: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/shop/checkout',
        payload: { payment: 'credit' },
        headers: { cookie: sessionCookie },
        remoteAddress: `192.0.2.${index + 1}`,
      });
    const answers = await Promise.all(Array.from({ length: max + 10 }, (_, index) => checkout(cookie, index)));
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(10);
    expect((await checkout(calm, 0)).statusCode).not.toBe(429);
  });

  it('shares the count through Redis between two instances', async () => {
    const env = { REDIS_URL, REDIS_KEY_PREFIX: `berth-rl-${randomBytes(4).toString('hex')}` };
    const [a, b] = [await open(env), await open(env)];
    const { max } = RATE_LIMITS.auth;
    const half = Math.ceil(max / 2);
    const answers = await Promise.all([
      ...Array.from({ length: half + 5 }, () => wrongLogin(a, '203.0.113.50')),
      ...Array.from({ length: max - half + 5 }, () => wrongLogin(b, '203.0.113.50')),
    ]);
    expect(statuses(answers)).toEqual({ 422: max, 429: 10 });
  });
});
