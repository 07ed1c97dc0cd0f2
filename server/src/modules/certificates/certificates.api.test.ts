import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser } from '../../../test/hosting.ts';
import { loadConfig } from '../../config.ts';
import { acmeSettingsOf } from './settings.ts';

// Without a CA (the embedded database, a developer's machine) nothing is ordered and the domain
// page says so; who may see a domain's certificate is who may see the domain. Ordering itself runs
// against Pebble with Berth's PowerDNS (server/test/daemons/certificates.daemon.test.ts).

let t: TestApp;
let owner: Awaited<ReturnType<typeof addUser>>;
let stranger: Awaited<ReturnType<typeof addUser>>;
let domainId: number;

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await addTenant(t, 'Alpha', 'alpha.test');
  const admin = await addUser(t, tenant, 'admin@alpha.test', 'host_admin');
  owner = await addUser(t, tenant, 'owner@alpha.test');
  stranger = await addUser(t, tenant, 'stranger@alpha.test');
  const made = await admin.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'plain.example', owner_id: owner.user.id } });
  expect(made.statusCode, made.body).toBe(201);
  domainId = made.json().data.id;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('certificates without a CA configured', () => {
  it('shows none and orders nothing', async () => {
    const answer = await owner.call({ method: 'GET', url: `/api/host/domain/${domainId}/certificate` });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toEqual({
      state: 'none',
      names: [],
      method: null,
      issuer: null,
      not_before: null,
      not_after: null,
      renew_at: null,
      problem: null,
      next_try_at: null,
    });
    expect(await t.services.certificates.runOnce()).toEqual({ ordered: 0 });
    const renew = await owner.call({ method: 'POST', url: `/api/host/domain/${domainId}/certificate/renew` });
    expect(renew.statusCode).toBe(409);
    expect(renew.json().message).toBe("Berth does not serve this domain's DNS yet, so it cannot get a certificate here.");
    expect(await t.db.selectFrom('certificates').selectAll().execute()).toEqual([]);
  });

  it("answers 404 for someone else's domain, and 401 without a session", async () => {
    for (const url of [`/api/host/domain/${domainId}/certificate`, `/api/host/domain/${domainId}/certificate/renew`]) {
      const method = url.endsWith('renew') ? 'POST' : 'GET';
      expect((await stranger.call({ method, url })).statusCode).toBe(404);
      expect((await t.app.inject({ method, url, headers: { host: 'alpha.test' } })).statusCode).toBe(401);
    }
  });
});

describe('which CA', () => {
  const configOf = (env: Record<string, string>) => loadConfig({ BERTH_DATA_DIR: '/tmp/unused', ...env });

  it("is Let's Encrypt in production on PostgreSQL, none on a developer's machine or the embedded database", () => {
    expect(acmeSettingsOf(configOf({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/berth' }))?.directoryUrl).toBe(
      'https://acme-v02.api.letsencrypt.org/directory',
    );
    expect(acmeSettingsOf(configOf({ NODE_ENV: 'production' }))).toBeNull();
    expect(acmeSettingsOf(configOf({ NODE_ENV: 'development', DATABASE_URL: 'postgres://db/berth' }))).toBeNull();
  });

  it('is the one configured, with External Account Binding when both of its values are given', () => {
    const settings = acmeSettingsOf(
      configOf({
        ACME_DIRECTORY_URL: 'https://acme.zerossl.com/v2/DV90',
        ACME_EAB_KID: 'kid-1',
        ACME_EAB_HMAC_KEY: 'aGVsbG8',
        ACME_EMAIL: 'ops@berth.test',
      }),
    );
    expect(settings).toEqual({
      directoryUrl: 'https://acme.zerossl.com/v2/DV90',
      email: 'ops@berth.test',
      eab: { kid: 'kid-1', hmacKey: 'aGVsbG8' },
      caFile: undefined,
    });
  });
});
