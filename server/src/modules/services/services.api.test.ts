import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/host/services', () => {
  it('says zones and mailboxes are served only on PostgreSQL, which the daemons read', async () => {
    expect((await t.app.inject({ url: '/api/host/services' })).statusCode).toBe(401);
    const { cookie } = await login(t.app);
    const answer = await t.app.inject({ url: '/api/host/services', headers: { cookie } });
    const onPostgres = t.databaseUrl !== undefined;
    expect(answer.json()).toEqual({ data: { dns: onPostgres, mail: onPostgres } });
  });
});
