import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../test/harness.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { ManualClock } from '../../lib/clock.ts';
import { PasswordHasher } from '../../lib/password.ts';
import { loadDemoData } from '../demo/service.ts';
import { ensureOperator, firstAdminBanner } from './bootstrap.ts';

let database: TestDatabase;
const hasher = new PasswordHasher({ memoryCost: 19_456, timeCost: 2 });
const clock = new ManualClock(new Date('2026-11-01T09:00:00Z'));

beforeEach(async () => {
  database = await openTestDatabase();
});
afterEach(async () => {
  await database.close();
});

describe('first start', () => {
  it('migrates idempotently', async () => {
    expect(await migrateToLatest(database.db)).toEqual([
      '0001_foundation',
      '0002_auth_flows',
      '0003_shell',
      '0004_hosting',
      '0005_shop',
      '0006_payments',
      '0007_hardening',
      '0008_registrations',
      '0009_dns_serving',
      '0010_mail_serving',
      '0011_dkim_keys',
      '0012_dns_lookup_index',
      '0013_two_factor_policy',
      '0014_api_tokens',
      '0015_passkeys',
      '0016_billing_details',
      '0017_hosting_addresses',
      '0018_plan_limits',
      '0019_domain_proof',
      '0020_mail_autoreplies',
      '0021_session_cache',
      '0022_mail_owner_safety',
      '0023_dns_complete_zones',
      '0024_storage_probe',
      '0025_dns_secondaries',
      '0026_throttle_hit_function',
      '0027_throttle_pair',
      '0028_dns_served_flag',
      '0029_dns_auth_flag',
      '0030_web_serving',
      '0031_web_plans',
      '0032_webhooks',
      '0033_billing',
      '0034_plan_renewal',
      '0035_certificates',
      '0036_e_invoices_cards',
      '0037_certificate_revocation',
      '0038_http01',
      '0039_dkim_signing',
      '0040_mail_send_limits',
      '0041_dkim_rotation',
      '0042_spam_filter',
      '0043_mail_log',
      '0044_mail_domain_limits',
      '0045_webmail',
      '0046_mail_lookups',
      '0047_certificate_wakeup',
      '0048_certificate_aliases',
      '0049_platform_certificate',
      '0050_pdns_served_table',
    ]);
    expect(await migrateToLatest(database.db)).toEqual([]);
  });

  it('creates tenant 1 and one super admin with a generated argon2id password, once', async () => {
    await migrateToLatest(database.db);
    const options = { adminEmail: 'root@example.com', adminPassword: undefined, publicUrl: undefined };
    const [first, second] = await Promise.all([
      ensureOperator(database.db, hasher, clock, options),
      ensureOperator(database.db, hasher, clock, options),
    ]);
    const created = first ?? second;
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect(created?.generatedPassword).toMatch(/^[A-Za-z0-9]{24}$/);
    expect(await ensureOperator(database.db, hasher, clock, options)).toBeUndefined();

    const users = await database.db.selectFrom('users').select(['tenant_id', 'email', 'role', 'password_hash']).execute();
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ tenant_id: 1, email: 'root@example.com', role: 'super_admin' });
    expect(users[0]?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await hasher.verify(users[0]?.password_hash ?? '', created?.generatedPassword ?? '')).toBe(true);
    expect(firstAdminBanner(created!, 'http://localhost:3000')).toContain(`password: ${created?.generatedPassword}`);
  });

  it('uses BERTH_ADMIN_PASSWORD when given and does not print it', async () => {
    await migrateToLatest(database.db);
    const admin = await ensureOperator(database.db, hasher, clock, {
      adminEmail: 'admin@localhost',
      adminPassword: 'a given password for automation',
      publicUrl: undefined,
    });
    expect(admin?.generatedPassword).toBeUndefined();
    expect(firstAdminBanner(admin!, 'http://x')).not.toContain('a given password for automation');
  });

  it('loads demo data once: a second tenant, a host admin, customers and 150 domains, 20 expired', async () => {
    await migrateToLatest(database.db);
    await ensureOperator(database.db, hasher, clock, { adminEmail: 'admin@localhost', adminPassword: undefined, publicUrl: undefined });
    const summary = await loadDemoData(database.db, hasher, clock, { password: 'demo password for everyone', port: 4321 });
    expect(summary).toMatchObject({ tenantId: 2, domains: 150, expired: 20, reseller: { tenantId: 3, host: 'reseller.localhost' } });
    // Mail links point at the port the panel runs on; the reseller's cart is the panel's own.
    const tenants = await database.db
      .selectFrom('tenants')
      .select(['id', 'public_url', 'host_purchases'])
      .where('id', '>', 1)
      .orderBy('id')
      .execute();
    expect(tenants).toEqual([
      { id: 2, public_url: 'http://harbor.localhost:4321', host_purchases: null },
      { id: 3, public_url: 'http://reseller.localhost:4321', host_purchases: '/shop/cart' },
    ]);
    const resellerCredit = await database.db
      .selectFrom('credit_ledger')
      .innerJoin('users', 'users.id', 'credit_ledger.user_id')
      .select(['users.role', 'credit_ledger.amount'])
      .where('credit_ledger.tenant_id', '=', 3)
      .execute();
    expect(resellerCredit).toEqual([{ role: 'host_admin', amount: 10_000 }]);
    expect(await loadDemoData(database.db, hasher, clock)).toBeUndefined();

    const roles = await database.db
      .selectFrom('users')
      .select(['role', (eb) => eb.fn.countAll<number>().as('n')])
      .where('tenant_id', '=', 2)
      .groupBy('role')
      .orderBy('role')
      .execute();
    expect(roles.map((r) => [r.role, Number(r.n)])).toEqual([
      ['customer', 5],
      ['host_admin', 1],
    ]);
    const expired = await database.db
      .selectFrom('domains')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('expire_at', '<', clock.now())
      .executeTakeFirstOrThrow();
    expect(Number(expired.n)).toBe(20);
  });
});
