import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, callerFor, superAdmin } from '../../../test/hosting.ts';
import { ownChain } from '../../../test/own-certificate.ts';
import { loadConfig } from '../../config.ts';
import { claimPlatformCertificate, findPlatformCertificate } from './queries.ts';
import { acmeSettingsOf } from './settings.ts';

// Without a CA (the embedded database, a developer's machine) nothing is ordered and the domain
// page says so; who may see a domain's certificate is who may see the domain. Ordering itself runs
// against Pebble with Berth's PowerDNS (server/test/daemons/certificates.daemon.test.ts).

let t: TestApp;
let owner: Awaited<ReturnType<typeof addUser>>;
let stranger: Awaited<ReturnType<typeof addUser>>;
let hostAdmin: Awaited<ReturnType<typeof addUser>>;
let domainId: number;

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await addTenant(t, 'Alpha', 'alpha.test');
  const admin = (hostAdmin = await addUser(t, tenant, 'admin@alpha.test', 'host_admin'));
  owner = await addUser(t, tenant, 'owner@alpha.test');
  stranger = await addUser(t, tenant, 'stranger@alpha.test');
  const made = await admin.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'plain.example', owner_id: owner.user.id } });
  expect(made.statusCode, made.body).toBe(201);
  domainId = made.json().data.id;
}, 120_000);
afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

let dir: string;
const makeChain = (names: string[], tag: string) => ownChain((dir ??= mkdtempSync(path.join(tmpdir(), 'berth-own-cert-'))), names, tag);

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
    expect(await t.services.certificates.runOnce()).toEqual({ ordered: 0, revoked: 0 });
    const renew = await owner.call({ method: 'POST', url: `/api/host/domain/${domainId}/certificate/renew` });
    expect(renew.statusCode).toBe(409);
    expect(renew.json().message).toBe("Berth does not serve this domain's DNS yet, so it cannot get a certificate here.");
    expect(await t.db.selectFrom('certificates').selectAll().execute()).toEqual([]);
  });

  it("shows the panel's own certificate to super admins only: none without a CA", async () => {
    const operator = await superAdmin(t);
    const answer = await operator.call({ method: 'GET', url: '/api/system/certificate' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toMatchObject({ state: 'none', names: [], method: null });
    for (const someone of [hostAdmin, owner])
      expect((await someone.call({ method: 'GET', url: '/api/system/certificate' })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/system/certificate' })).statusCode).toBe(401);
  });

  it("answers 404 for someone else's domain, and 401 without a session", async () => {
    for (const url of [`/api/host/domain/${domainId}/certificate`, `/api/host/domain/${domainId}/certificate/renew`]) {
      const method = url.endsWith('renew') ? 'POST' : 'GET';
      expect((await stranger.call({ method, url })).statusCode).toBe(404);
      expect((await t.app.inject({ method, url, headers: { host: 'alpha.test' } })).statusCode).toBe(401);
    }
  });
});

describe("one's own certificate", () => {
  const upload = (payload: Record<string, unknown>, caller = owner) =>
    caller.call({ method: 'PUT', url: `/api/host/domain/${domainId}/certificate`, payload });
  const refused = async (payload: Record<string, unknown>, field: string, message: string) => {
    const answer = await upload(payload);
    expect(answer.statusCode, answer.body).toBe(422);
    expect(answer.json().errors).toEqual({ [field]: [message] });
  };

  it('is refused with the reason on the field: the key, the chain, the names, the dates, the form', async () => {
    const own = await makeChain(['plain.example', '*.plain.example'], 'own');
    const other = await makeChain(['other.example'], 'other');
    // The test CA's certificates start now: the platform's clock reads the same (and everyone logs in again).
    t.clock.set(new Date());
    for (const someone of [owner, stranger]) someone.call = await callerFor(t, someone.user);
    const full = own.leaf + own.intermediate + own.root;
    await refused({ certificate: full, private_key: own.otherKey }, 'private_key', 'This key does not belong to the certificate.');
    await refused(
      { certificate: own.leaf, private_key: own.key },
      'certificate',
      'The chain is incomplete: add the certificate of Test Intermediate own, which signed the last one.',
    );
    await refused(
      { certificate: own.leaf + own.root, private_key: own.key },
      'certificate',
      'The chain is out of order: plain.example is not signed by the certificate after it.',
    );
    await refused(
      { certificate: other.leaf + other.intermediate + other.root, private_key: other.key },
      'certificate',
      'The certificate does not cover plain.example.',
    );
    const bad = '-----BEGIN CERTIFICATE-----\nMII;{"..\n-----END CERTIFICATE-----';
    await refused({ certificate: bad, private_key: own.key }, 'certificate', expect.stringContaining('PEM') as unknown as string);
    await refused({ certificate: full, private_key: 'key"; { ../..' }, 'private_key', expect.stringContaining('PEM') as unknown as string);
    const empty = await upload({ certificate: '', private_key: '' });
    expect(empty.statusCode).toBe(422);
    expect(Object.keys(empty.json().errors).sort()).toEqual(['certificate', 'private_key']);
    // Its end passed by the platform's clock.
    const now = t.clock.now();
    t.clock.set(new Date(now.getTime() + 25 * 24 * 60 * 60 * 1000));
    try {
      await refused(
        { certificate: full, private_key: own.key },
        'certificate',
        expect.stringMatching(/^The certificate ended on \d{4}-\d{2}-\d{2}\.$/) as unknown as string,
      );
    } finally {
      t.clock.set(now);
    }
    // Nothing half-written, and someone else's domain is not found.
    expect(await t.db.selectFrom('certificates').selectAll().execute()).toEqual([]);
    expect((await upload({ certificate: full, private_key: own.key }, stranger)).statusCode).toBe(404);
  });

  it('is taken with a complete chain and its key, shown as uploaded, and its key sealed', async () => {
    const own = await makeChain(['plain.example', '*.plain.example'], 'good');
    t.clock.set(new Date());
    owner.call = await callerFor(t, owner.user);
    const answer = await upload({ certificate: own.leaf + own.intermediate + own.root, private_key: own.key });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().message).toBe('Your certificate is saved and in use within seconds.');
    expect(answer.json().data).toMatchObject({
      state: 'valid',
      method: 'custom',
      names: ['plain.example', '*.plain.example'],
      issuer: 'Test Intermediate good',
      renew_at: null,
      problem: null,
    });
    const row = await t.db.selectFrom('certificates').selectAll().where('domain_id', '=', domainId).executeTakeFirstOrThrow();
    expect(row.key_sealed).not.toContain('PRIVATE KEY');
    expect(row.cert_pem!.match(/BEGIN CERTIFICATE/g)).toHaveLength(3);
    const audit = await t.db.selectFrom('audit_log').select('action').where('action', '=', 'certificate.uploaded').execute();
    expect(audit).toHaveLength(1);
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
    expect(acmeSettingsOf(configOf({ NODE_ENV: 'production', DATABASE_URL: 'postgres://db/berth', ACME_DIRECTORY_URL: 'off' }))).toBeNull();
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

describe("the panel's certificate's claim", () => {
  it('goes to one of 30 passes at the same instant, and again to one after its lease', async () => {
    const names = ['panel.claim.example', 'webmail.panel.claim.example'];
    const now = new Date('2026-12-01T10:00:00Z');
    const lease = (from: Date) => new Date(from.getTime() + 10 * 60 * 1000);
    const claims = await Promise.all(Array.from({ length: 30 }, () => claimPlatformCertificate(t.db, names, now, lease(now))));
    expect(claims.filter(Boolean)).toHaveLength(1);
    // Within the lease nobody else takes it; once it has run out, exactly one pass does again.
    const during = new Date(now.getTime() + 5 * 60 * 1000);
    expect(await claimPlatformCertificate(t.db, names, during, lease(during))).toBe(false);
    const after = lease(now);
    const again = await Promise.all(Array.from({ length: 30 }, () => claimPlatformCertificate(t.db, names, after, lease(after))));
    expect(again.filter(Boolean)).toHaveLength(1);
    const row = await findPlatformCertificate(t.db);
    expect(row?.next_try_at && new Date(row.next_try_at).toISOString()).toBe(lease(after).toISOString());
  });
});
