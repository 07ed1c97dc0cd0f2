import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { OPERATOR_TENANT_ID } from '@berth/contracts';
import { createTestApp, login, type TestApp } from '../../../test/harness.ts';
import { TENANTS_CHANGED } from './service.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const apps: TestApp[] = [];

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

async function app(env: Record<string, string> = {}) {
  const t = await createTestApp({ env });
  apps.push(t);
  return t;
}

const titleOn = async (t: TestApp) => (await t.app.inject({ url: '/api/tenant' })).json().data.title as string;

/** A change made behind the app's back, as another instance sharing the database makes it. */
const renameBehindItsBack = (t: TestApp, title: string) =>
  t.db.updateTable('tenants').set({ title }).where('id', '=', OPERATOR_TENANT_ID).execute();

describe('the tenant cache', () => {
  it('answers from memory until a change is announced, on every instance that shares Redis', async () => {
    const env = { REDIS_URL, REDIS_KEY_PREFIX: `berth-test-${randomBytes(4).toString('hex')}` };
    const writer = await app(env);
    const reader = await app(env);
    const before = await titleOn(reader);

    await renameBehindItsBack(reader, 'Renamed elsewhere');
    // Cached: no query for the tenant on this request (the clock has not moved past the TTL).
    expect(await titleOn(reader)).toBe(before);

    // The instance that made the change announces it; the other drops its cache at once.
    await writer.services.realtime.announceChange(TENANTS_CHANGED);
    const deadline = Date.now() + 5_000;
    let title = await titleOn(reader);
    while (title !== 'Renamed elsewhere' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      title = await titleOn(reader);
    }
    expect(title).toBe('Renamed elsewhere');
  });

  it('drops a missed change after its few seconds even without Redis', async () => {
    const t = await app();
    const before = await titleOn(t);
    await renameBehindItsBack(t, 'Renamed without Redis');
    expect(await titleOn(t)).toBe(before);
    t.clock.advance(10_001);
    expect(await titleOn(t)).toBe('Renamed without Redis');
  });

  it("a super admin's change shows on the next request of the same instance", async () => {
    const t = await app();
    const { cookie } = await login(t.app);
    await titleOn(t);
    const changed = await t.app.inject({
      method: 'PATCH',
      url: `/api/system/tenants/${OPERATOR_TENANT_ID}`,
      headers: { cookie },
      payload: { title: 'Changed by the admin' },
    });
    expect(changed.statusCode).toBe(200);
    expect(await titleOn(t)).toBe('Changed by the admin');
  });
});
