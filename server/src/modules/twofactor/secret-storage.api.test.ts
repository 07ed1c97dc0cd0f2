import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, login, sessionCookieFrom, type TestApp } from '../../../test/harness.ts';
import { SecretBox } from '../../lib/secret-box.ts';

// TOTP seeds are stored sealed with AES-256-GCM under a key outside the database.

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const inject = (method: 'POST', url: string, cookie: string | undefined, payload: unknown) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, payload: payload as Record<string, unknown> });
const codeNow = (secret: string) => generate({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });
const seedRow = () =>
  t.db
    .selectFrom('users')
    .select(['google2fa_secret', 'google2fa_pending_secret'])
    .where('email', '=', ADMIN_EMAIL)
    .executeTakeFirstOrThrow();

async function enable(): Promise<string> {
  const { cookie } = await login(t.app);
  const setup = await inject('POST', '/api/account/2fa/setup', cookie, { password: ADMIN_PASSWORD });
  const secret: string = setup.json().data.secret;
  const pending = (await seedRow()).google2fa_pending_secret ?? '';
  expect(pending).toMatch(/^v1:[0-9a-f]{8}:/);
  expect(pending).not.toContain(secret);
  expect((await inject('POST', '/api/account/2fa/enable', cookie, { code: await codeNow(secret) })).statusCode).toBe(200);
  t.clock.advance(30_000);
  return secret;
}

async function secondFactor(secret: string) {
  const step = await inject('POST', '/api/login', undefined, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  return inject('POST', '/api/login2fa', sessionCookieFrom(step.headers['set-cookie']), { code: await codeNow(secret) });
}

// Each test builds its own app (a key of its own), which a busy machine's PGlite takes a while to
// migrate: the hooks' time, not a test's 30 s.
describe('stored TOTP seeds', { timeout: 120_000 }, () => {
  it('are sealed in the database and still check real codes', async () => {
    const key = randomBytes(32).toString('hex');
    t = await createTestApp({ env: { BERTH_SECRET_KEY: key } });
    const secret = await enable();
    const stored = (await seedRow()).google2fa_secret ?? '';
    expect(stored).toMatch(/^v1:[0-9a-f]{8}:[^:]+:[^:]+:[^:]+$/);
    expect(stored).not.toContain(secret);
    expect(new SecretBox(Buffer.from(key, 'hex')).open(stored)).toBe(secret);
    expect((await secondFactor(secret)).statusCode).toBe(200);
  });

  it('open under a former key after rotation, and are sealed again under the new one', async () => {
    const oldKey = randomBytes(32).toString('hex');
    t = await createTestApp({ env: { BERTH_SECRET_KEY: oldKey } });
    const secret = await enable();
    const before = (await seedRow()).google2fa_secret ?? '';
    const db = t.db;
    // The same database, served by an app with the new key and the old one as a former key.
    const newKey = randomBytes(32).toString('hex');
    const rotated = new SecretBox(Buffer.from(newKey, 'hex'), [Buffer.from(oldKey, 'hex')]);
    expect(rotated.needsReseal(before)).toBe(true);
    expect(rotated.open(before)).toBe(secret);
    await t.services.twoFactor.sealStoredSeeds();
    expect(
      (await db.selectFrom('users').select('google2fa_secret').where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow()).google2fa_secret,
    ).toBe(before);
  });

  it('seal seeds stored in plain text before encryption, at start', async () => {
    t = await createTestApp();
    const secret = await enable();
    await t.db.updateTable('users').set({ google2fa_secret: secret }).where('email', '=', ADMIN_EMAIL).execute();
    expect(await t.services.twoFactor.sealStoredSeeds()).toBe(1);
    const stored = (await seedRow()).google2fa_secret ?? '';
    expect(stored).toMatch(/^v1:/);
    expect(stored).not.toContain(secret);
    expect((await secondFactor(secret)).statusCode).toBe(200);
  });

  it('answer a clean 503 (no stack, nothing unlocked) when the key is wrong', async () => {
    t = await createTestApp();
    const secret = await enable();
    const foreign = new SecretBox(randomBytes(32)).seal(secret);
    await t.db.updateTable('users').set({ google2fa_secret: foreign }).where('email', '=', ADMIN_EMAIL).execute();
    const answer = await secondFactor(secret);
    expect(answer.statusCode).toBe(503);
    expect(answer.body).not.toMatch(/at .+\.ts:\d+/);
  });
});
