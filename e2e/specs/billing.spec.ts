import { spawn } from 'node:child_process';
import { request } from 'node:http';
import path from 'node:path';
import { signInPage, uniqueToken } from '../support/accounts.ts';
import { giveCredit, superAdmin } from '../support/shop.ts';
import { reviewScreen } from '../support/review.ts';
import { repoRoot } from '../support/server.ts';
import { test, expect } from '../support/services.ts';

// The business that runs itself (modules/billing): a domain renews on its own; when the credit does
// not cover it the customer is asked to pay, and weeks later, still unpaid, their sites stop (nginx
// answers the suspended page) until they pay — from the dashboard, and the site is back at once.
// The weeks pass on a second instance whose clock is set (support/billing-pass.ts).

const DAY = 24 * 60 * 60 * 1000;

/** The status nginx answers for `host`. */
function statusOf(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** One billing pass as of `at`, run by a second instance on the same database. */
function billingPass(databaseUrl: string, at: Date, smtpUrl: string): Promise<{ renewals: number; suspended: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'e2e/support/billing-pass.ts')], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl, BILLING_AT: at.toISOString(), SMTP_URL: smtpUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the billing pass exited with ${code}:\n${out}`));
      else resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}') as { renewals: number; suspended: number });
    });
  });
}

test('auto-renewal on the domain page; an unpaid renewal suspends the customer’s site until they pay from the dashboard', async ({
  page,
  accounts,
  berth,
  mailbox,
  hostingServices,
}, testInfo) => {
  test.slow();
  if (!berth.databaseUrl) throw new Error('the billing spec runs on PostgreSQL');
  const owner = await accounts.customer('billing');
  const admin = await superAdmin(accounts, berth.admin);
  // The customer's website, and a .com domain of theirs the tenant renews, expiring in 10 days.
  const site = await accounts.domain(owner);
  const renewable = `e2e-${uniqueToken()}.com`;
  const expireAt = new Date(Date.now() + 10 * DAY);
  const created = await admin.post('/api/host/domain', {
    data: { name: renewable, owner_id: owner.id, expire_at: expireAt.toISOString() },
  });
  expect(created.status(), await created.text()).toBe(201);
  const domainId = ((await created.json()) as { data: { id: number } }).data.id;
  await expect.poll(() => statusOf(hostingServices.httpPort, site.name), { timeout: 15_000 }).toBe(200);

  // The reseller's side: auto-renewal is on by default, a switch on the domain page.
  await signInPage(page, berth.admin);
  await page.goto(`/host/domain/${domainId}/edit`);
  const autoRenew = page.getByRole('switch', { name: /renewed from your credit/ });
  await expect(autoRenew).toBeChecked();
  // By keyboard: the switch sits right under the sticky header once scrolled to.
  await autoRenew.focus();
  await page.keyboard.press('Space');
  const off = page.getByRole('switch', { name: /renew it yourself/ });
  await expect(off).not.toBeChecked();
  expect(((await (await admin.get(`/api/host/domain/${domainId}`)).json()) as { data: { auto_renew: boolean } }).data.auto_renew).toBe(
    false,
  );
  await off.focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('switch', { name: /renewed from your credit/ })).toBeChecked();
  await reviewScreen(page, testInfo, 'billing-domain-auto-renew', { include: 'main' });
  await page.context().clearCookies();

  // Ten days before expiry the pass renews; the customer has no credit, so an invoice waits.
  expect((await billingPass(berth.databaseUrl, new Date(), mailbox.url)).renewals).toBeGreaterThanOrEqual(1);
  await signInPage(page, owner);
  await page.goto('/dashboard');
  const alert = page.getByRole('status').filter({ hasText: 'A renewal waits to be paid' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('€18.03');
  await reviewScreen(page, testInfo, 'billing-unpaid', { include: 'main' });

  // Two weeks past the due date, still unpaid: suspended. The panel still lets the customer in.
  expect((await billingPass(berth.databaseUrl, new Date(expireAt.getTime() + 15 * DAY), mailbox.url)).suspended).toBe(1);
  await expect.poll(() => statusOf(hostingServices.httpPort, site.name), { timeout: 15_000 }).toBe(503);
  await page.reload();
  const suspended = page.getByRole('alert').filter({ hasText: 'Your services are suspended' });
  await expect(suspended).toBeVisible();
  await reviewScreen(page, testInfo, 'billing-suspended', { include: 'main' });

  // Without credit the press says why; with it, the invoice is paid and the site is back within seconds.
  await suspended.getByRole('button', { name: 'Pay from credit' }).click();
  await expect(suspended).toContainText('Insufficient credit');
  await giveCredit(admin, owner.id, 50_00);
  await suspended.getByRole('button', { name: 'Pay from credit' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your services are suspended' })).toHaveCount(0);
  const paidAt = Date.now();
  await expect.poll(() => statusOf(hostingServices.httpPort, site.name), { timeout: 5_000 }).toBe(200);
  expect(Date.now() - paidAt).toBeLessThan(5_000);
  await reviewScreen(page, testInfo, 'billing-paid', { include: 'main' });
});
