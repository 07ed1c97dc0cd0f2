import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { newPassword, uniqueToken, type Accounts } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';
import { signIn } from '../support/shell-session.ts';
import { countLayoutShifts, holdAnswers, layoutShift, navigateInApp, resetLayoutShift } from '../support/layoutShift.ts';

// /dashboard shows the numbers of GET /api/dashboard: a customer's own domains, those
// expiring within 30 days, domain users, cart rows and unread notifications; a host admin's
// tenant totals with the customers. The data is made through the API by the super admin.

const DAY_MS = 24 * 60 * 60 * 1000;
const SHELL_PAGE = { include: 'main' };

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The stat card (a link) with this label. */
const stat = (page: Page, label: string) =>
  page
    .getByRole('region', { name: 'Key numbers' })
    .getByRole('link')
    .filter({ has: page.getByText(label, { exact: true }) });

/** The card shows `value` right after its label (and not, say, 12 for 2). */
async function expectStat(page: Page, label: string, value: number): Promise<void> {
  await expect(stat(page, label)).toHaveText(new RegExp(`^${escape(label)}\\s*${value}(\\D|$)`));
}

/**
 * The stat cards in rows with their numbers level (a title that wraps moves no number) and no
 * card alone on a row.
 */
async function expectTidyCards(page: Page, options: { loneLastCardTakesTheRow?: boolean } = {}): Promise<void> {
  const boxes = await page
    .getByRole('region', { name: 'Key numbers' })
    .getByRole('listitem')
    .evaluateAll((items) =>
      items.map((item) => ({
        top: Math.round(item.getBoundingClientRect().top),
        value: Math.round(item.querySelector('a > span:nth-child(2)')?.getBoundingClientRect().top ?? -1),
      })),
    );
  const rows = new Map<number, number[]>();
  for (const box of boxes) rows.set(box.top, [...(rows.get(box.top) ?? []), box.value]);
  for (const values of rows.values()) expect(new Set(values).size, 'numbers of a row at one height').toBe(1);
  const lone = [...rows.values()].map((values) => values.length).filter((n) => n === 1);
  // On a phone an odd last card spans both columns instead (DashboardPage.module.css).
  expect(lone, 'no card alone on a row').toEqual(options.loneLastCardTakesTheRow && boxes.length % 2 === 1 ? [1] : []);
}

async function dashboardOf(api: APIRequestContext): Promise<Record<string, number | null>> {
  const answer = await api.get('/api/dashboard');
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { data: Record<string, number | null> }).data;
}

test('a customer sees their own numbers: domains, one expiring soon, a mailbox, the cart and notifications', async ({
  page,
  accounts,
  berth,
  baseURL,
}, testInfo) => {
  const customer = await accounts.customer('dashboard');
  const admin = await accounts.signedIn(berth.admin);
  const soon = `e2e-soon-${uniqueToken()}.test`;
  const expiring = await admin.post('/api/host/domain', {
    data: { name: soon, owner_id: customer.id, expire_at: new Date(Date.now() + 10 * DAY_MS).toISOString() },
  });
  expect(expiring.status(), await expiring.text()).toBe(201);
  const domain = await accounts.domain(customer);
  const password = newPassword();
  const mailbox = await admin.post(`/api/host/domain/${domain.id}/users`, {
    data: { uid: 'info', password, password_confirmation: password },
  });
  expect(mailbox.status(), await mailbox.text()).toBe(201);

  // The expiry job's first run (5 s after the server starts) may remind the owner of the expiring
  // domain: the page opens after it, so that the count cannot change while the page loads.
  await expect.poll(() => /"msg":"expiry reminders/.test(berth.output()), { timeout: 15_000 }).toBe(true);
  await signIn(page.context(), baseURL as string, customer.email, customer.password);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${customer.givenName} ${customer.surname}` })).toBeVisible();

  await expectStat(page, 'Domains', 2);
  await expectStat(page, 'Expiring within 30 days', 1);
  await expectStat(page, 'Domain users', 1);
  await expectStat(page, 'In the cart', 0);
  await expect(stat(page, 'Customers'), 'customers are for admins').toHaveCount(0);
  // The customer's own credit, as they read money.
  await expect(stat(page, 'Credit')).toHaveText(/€0\.00/);
  await expectTidyCards(page);
  // The card shows what the server counts (1 if that run came after the domain was made, else 0).
  const own = await dashboardOf(await accounts.signedIn(customer));
  await expectStat(page, 'Unread notifications', own.notifications_unread as number);
  await expect(stat(page, 'Unread notifications')).toHaveAttribute('href', '/notifications');
  await expect(stat(page, 'Expiring within 30 days')).toHaveAttribute('href', '/host/domain?sort=expire_at');

  const expiringSoon = page.getByRole('region', { name: 'Expiring soon' });
  await expect(expiringSoon.getByRole('link', { name: soon })).toBeVisible();
  await expect(expiringSoon.getByRole('link', { name: domain.name })).toHaveCount(0);
  await expect(expiringSoon.getByRole('link', { name: 'Renew' })).toHaveAttribute('href', /^\/host\/domain\/\d+\/renew$/);
  await reviewScreen(page, testInfo, 'dashboard-customer', SHELL_PAGE);
});

test("a host admin sees the tenant's totals, customers included", async ({ page, accounts, baseURL }, testInfo) => {
  const hostAdmin = await accounts.hostAdmin('dashboard-admin');
  const customer = await accounts.customer('dashboard-tenant');
  await accounts.domain(customer);

  await signIn(page.context(), baseURL as string, hostAdmin.email, hostAdmin.password);
  await page.goto('/dashboard');
  await expect(page.getByText("Your tenant's customers and domains at a glance.")).toBeVisible();
  // Other specs share the worker's tenant 1: the cards must match the server's totals.
  const totals = await dashboardOf(await accounts.signedIn(hostAdmin));
  expect(totals.customers).toBeGreaterThanOrEqual(1);
  expect(totals.domains).toBeGreaterThanOrEqual(1);
  await expectStat(page, 'Customers', totals.customers as number);
  await expectStat(page, 'Domains', totals.domains as number);
  await expectStat(page, 'Expiring within 30 days', totals.domains_expiring_30d as number);
  await expectStat(page, 'Expired', totals.domains_expired as number);
  await expectStat(page, 'Domain users', totals.domain_users as number);
  await expect(stat(page, 'Customers')).toHaveAttribute('href', '/system/customers');
  await expectTidyCards(page);
  await reviewScreen(page, testInfo, 'dashboard-host-admin', SHELL_PAGE);

  await stat(page, 'Customers').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
});

/** The dashboard with its numbers a second late, as on a slow network: the layout shift summed. */
async function shiftWhileNumbersLoad(page: Page, accounts: Accounts, baseURL: string, name: string): Promise<number> {
  const customer = await accounts.customer(name);
  await signIn(page.context(), baseURL, customer.email, customer.password);
  await countLayoutShifts(page);
  const dashboard = await holdAnswers(page, '**/api/dashboard', 1_000);
  await page.goto('/account');
  await navigateInApp(page, '/dashboard');
  // The placeholders are in; what moves from here on is the numbers' doing.
  await expect(page.getByRole('region', { name: 'Key numbers' })).toHaveAttribute('aria-busy', 'true');
  await resetLayoutShift(page);
  await expectStat(page, 'Unread notifications', 0);
  await expect(page.getByRole('region', { name: 'Expiring soon' })).toBeVisible();
  expect(dashboard.held).toBeGreaterThan(0);
  return layoutShift(page);
}

test('little moves while the numbers load: the footer and the stat cards keep their places', async ({ page, accounts, baseURL }) => {
  // The expiring list's placeholder is taller than "no domain expires" and moves what follows a
  // little (0.01 on a desktop); the footer alone moved 0.07 on a phone before it started below the fold.
  expect(await shiftWhileNumbersLoad(page, accounts, baseURL as string, 'dashboard-shift')).toBeLessThan(0.02);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

  test('the stat cards keep their height when the numbers replace their placeholders', async ({ page, accounts, baseURL }) => {
    // The numbers are smaller on a phone: a placeholder of the desktop's height made every card
    // shrink by 7 px when they came (0.019 in Lighthouse's phone profile).
    expect(await shiftWhileNumbersLoad(page, accounts, baseURL as string, 'dashboard-shift-phone')).toBeLessThan(0.005);
    // Two columns: "Expiring within 30 days" wraps to three lines and its number stays level.
    await expectTidyCards(page, { loneLastCardTakesTheRow: true });
  });
});
