import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, login, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { BERTH_PUBLIC_URL: 'https://panel.example.net:3000/' } });
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
    // Webmail is at webmail.<panel host> (Roundcube by npm run services), where mail is served at all.
    expect(answer.json()).toEqual({
      data: { dns: onPostgres, mail: onPostgres, webmail_url: onPostgres ? 'https://webmail.panel.example.net/' : null },
    });
  });

  it('leads to BERTH_WEBMAIL_URL when it is set', async () => {
    const own = await createTestApp({ env: { BERTH_WEBMAIL_URL: 'https://mail.example.org/roundcube/' } });
    try {
      const { cookie } = await login(own.app);
      const answer = await own.app.inject({ url: '/api/host/services', headers: { cookie } });
      expect(answer.json().data.webmail_url).toBe(own.databaseUrl !== undefined ? 'https://mail.example.org/roundcube/' : null);
    } finally {
      await own.close();
    }
  });
});
