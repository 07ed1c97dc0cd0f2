import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, callerFor, type Caller } from '../../../test/hosting.ts';
import type { UserRow } from '../users/queries.ts';

let t: TestApp;
let admin: { user: UserRow; call: Caller };
let customer: { user: UserRow; call: Caller };
let planId: number;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestApp();
  const tenant = await addTenant(t, 'Alpha', 'alpha.test', ['ns1.alpha.test']);
  admin = await addUser(t, tenant, 'admin@alpha.test', 'host_admin');
  customer = await addUser(t, tenant, 'buyer@alpha.test');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const newDomain = (call: Caller, name: string, owner?: number) =>
  call({ method: 'POST', url: '/api/host/domain', payload: { name, ...(owner ? { owner_id: owner } : {}) } });
const newMailbox = (domainId: number, uid: string, quota: number) =>
  customer.call({
    method: 'POST',
    url: `/api/host/domain/${domainId}/users`,
    payload: { uid, password: 'a long enough passphrase 2026', password_confirmation: 'a long enough passphrase 2026', quota_mb: quota },
  });

describe('hosting plan limits', () => {
  it('keeps what a plan includes on the plan, checked on its fields', async () => {
    const refused = await admin.call({
      method: 'POST',
      url: '/api/system/shop/plans',
      payload: { title: 'Tiny', monthly_price: 100, yearly_price: 1000, max_domains: 0, disk_gb: 1.5 },
    });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors).sort()).toEqual(['disk_gb', 'max_domains']);
    expect(refused.json().errors.max_domains).toEqual(['Enter a whole number from 1, or leave it empty for unlimited.']);
    // The PHP pool's workers and memory: whole numbers in range, or empty for the web server's default.
    const php = await admin.call({
      method: 'POST',
      url: '/api/system/shop/plans',
      payload: { title: 'Tiny', monthly_price: 100, yearly_price: 1000, php_workers: 0, php_memory_mb: 16, mail_per_hour: 0 },
    });
    expect(php.statusCode).toBe(422);
    expect(php.json().errors).toEqual({
      php_workers: ["Enter a whole number from 1 to 100, or leave it empty for the server's default."],
      php_memory_mb: ["Enter a whole number of MB from 32 to 2048, or leave it empty for the server's default."],
      mail_per_hour: ["Enter a whole number from 1 to 100000, or leave it empty for the platform's default."],
    });
    const created = await admin.call({
      method: 'POST',
      url: '/api/system/shop/plans',
      payload: { title: 'Tiny', monthly_price: 100, yearly_price: 1000, max_domains: 2, max_mailboxes: 2, disk_gb: 1 },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).toMatchObject({
      max_domains: 2,
      max_mailboxes: 2,
      disk_gb: 1,
      php_workers: null,
      php_memory_mb: null,
      mail_per_hour: null,
    });
    planId = created.json().data.id;
  });

  it('binds no one who never bought a plan', async () => {
    for (const name of ['free-one.example', 'free-two.example', 'free-three.example']) {
      const answer = await newDomain(customer.call, name);
      expect(answer.statusCode, answer.body).toBe(201);
    }
    const services = await customer.call({ method: 'GET', url: '/api/shop/subscriptions' });
    expect(services.json().usage).toEqual({ allowance: null, used: { domains: 3, mailboxes: 0, disk_mb: 0 } });
    // Back to none: the plan counts from zero below.
    await t.db.deleteFrom('domains').where('owner_id', '=', customer.user.id).execute();
  });

  it('lets 30 simultaneous domain creations of a plan holder through up to the plan, an admin past it', async () => {
    const now = t.clock.now();
    await t.db
      .insertInto('hosting_subscriptions')
      .values({
        tenant_id: customer.user.tenant_id,
        user_id: customer.user.id,
        plan_id: planId,
        title: 'Tiny',
        order_item_id: null,
        starts_at: now,
        expires_at: new Date(now.getTime() + 30 * DAY),
      })
      .execute();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => newDomain(customer.call, `race-${i}.example`)));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(2);
    const refused = answers.filter((a) => a.statusCode !== 201);
    expect(refused.map((a) => a.statusCode)).toEqual(Array(28).fill(422));
    expect(refused[0]?.json().errors.name).toEqual([
      'Domains included in your hosting plans: 2, all in use. Upgrade your plan in the shop to add more.',
    ]);
    const owned = await t.db.selectFrom('domains').select('id').where('owner_id', '=', customer.user.id).execute();
    expect(owned).toHaveLength(2);
    // The host admin may set up more for the customer.
    const byAdmin = await newDomain(admin.call, 'admin-extra.example', customer.user.id);
    expect(byAdmin.statusCode, byAdmin.body).toBe(201);
  });

  it('counts mailboxes and their quotas against the plan, 30 at once', async () => {
    const domain = await t.db
      .selectFrom('domains')
      .select('id')
      .where('owner_id', '=', customer.user.id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    // 1 GB of disk: two mailboxes of 400 MB fit, and the plan includes two.
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => newMailbox(domain.id, `box${i}`, 400)));
    const created = answers.filter((a) => a.statusCode === 201);
    expect(created).toHaveLength(2);
    expect(answers.filter((a) => a.statusCode === 422)).toHaveLength(28);
    expect(answers.find((a) => a.statusCode === 422)?.json().errors.uid).toEqual([
      'Mailboxes included in your hosting plans: 2, all in use. Upgrade your plan in the shop to add more.',
    ]);
    // A larger quota than the disk left is refused on the quota: 1024 − 800 = 224 MB free.
    const grown = await customer.call({
      method: 'PATCH',
      url: `/api/host/domain/${domain.id}/users/${created[0]?.json().data.id}`,
      payload: { quota_mb: 700 },
    });
    expect(grown.statusCode).toBe(422);
    expect(grown.json().errors.quota_mb).toEqual([
      'Disk space included in your hosting plans (mailboxes and websites): 1024 MB, of which 224 MB are free. Choose a smaller quota or upgrade your plan.',
    ]);
    const smaller = await customer.call({
      method: 'PATCH',
      url: `/api/host/domain/${domain.id}/users/${created[0]?.json().data.id}`,
      payload: { quota_mb: 600 },
    });
    expect(smaller.statusCode, smaller.body).toBe(200);
    // My hosting shows the same sums the checks use.
    const services = await customer.call({ method: 'GET', url: '/api/shop/subscriptions' });
    expect(services.json().usage).toEqual({
      allowance: { active: true, domains: 2, mailboxes: 2, disk_mb: 1024 },
      used: { domains: 3, mailboxes: 2, disk_mb: 1000 },
    });

    // 24 MB are free: either mailbox may grow by 20 MB, not both. 30 simultaneous requests, half
    // growing each: one side gets through (repeats of it change nothing), the other is refused.
    const [first, second] = created.map((answer) => answer.json().data.id as number);
    const grow = (id: number | undefined, quota_mb: number) =>
      customer.call({ method: 'PATCH', url: `/api/host/domain/${domain.id}/users/${id}`, payload: { quota_mb } });
    const raced = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? grow(first, 620) : grow(second, 420))));
    const okFirst = raced.filter((a, i) => i % 2 === 1 && a.statusCode === 200).length;
    const okSecond = raced.filter((a, i) => i % 2 === 0 && a.statusCode === 200).length;
    expect([okFirst, okSecond].sort((a, b) => a - b)).toEqual([0, 15]);
    expect(raced.filter((a) => a.statusCode === 422)).toHaveLength(15);
    const quotas = await t.db.selectFrom('domain_users').select('quota_mb').where('domain_id', '=', domain.id).execute();
    expect(quotas.reduce((sum, row) => sum + Number(row.quota_mb), 0)).toBe(1020);
  });

  it('allows nothing more once every plan has run out, as the controllable clock shows', async () => {
    t.clock.advance(31 * DAY);
    // A new session: the old one lapsed with the month.
    const call = await callerFor(t, customer.user);
    const answer = await newDomain(call, 'after-expiry.example');
    expect(answer.statusCode).toBe(422);
    expect(answer.json().errors.name).toEqual([
      'Your hosting plans have run out. Renew one in the shop to add domains and mailboxes again.',
    ]);
    // A mailbox is refused on its own field, where the form shows it.
    const domain = await t.db
      .selectFrom('domains')
      .select('id')
      .where('owner_id', '=', customer.user.id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const mailbox = await call({
      method: 'POST',
      url: `/api/host/domain/${domain.id}/users`,
      payload: {
        uid: 'late',
        password: 'a long enough passphrase 2026',
        password_confirmation: 'a long enough passphrase 2026',
        quota_mb: 10,
      },
    });
    expect(mailbox.statusCode).toBe(422);
    expect(Object.keys(mailbox.json().errors)).toEqual(['uid']);
  });
});
