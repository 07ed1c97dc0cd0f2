import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { uniqueToken } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';
import { signIn } from '../support/shell-session.ts';

// /system/audit: who did what to which object, when and from which IP. Super admins read
// every tenant's entries, host admins their own tenant's; filters by action, user, object and
// dates. The entries come from what the test does through the API (from 127.0.0.1).

/** Inner pages: axe checks the page, the shell specs the frame. */
const MAIN = { include: 'main' };

async function openAs(page: Page, baseURL: string, user: { email: string; password: string }, path: string): Promise<void> {
  await signIn(page.context(), baseURL, user.email, user.password);
  await page.goto(path);
  await expect(page.getByTestId('shell-user-name')).toBeAttached();
}

const entries = (page: Page) => page.getByTestId('audit-entry');
const entry = (page: Page, action: string, text: string) =>
  entries(page)
    .and(page.locator(`[data-action="${action}"]`))
    .filter({ hasText: text });

/** `YYYY-MM-DD` of a day relative to today, in the browser's time zone. */
const day = (page: Page, offsetDays: number) =>
  page.evaluate((offset) => {
    const date = new Date();
    date.setDate(date.getDate() + offset);
    return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
  }, offsetDays);

test('a super admin reads who did what, filters by action, user and date, and pages through', async ({
  page,
  accounts,
  berth,
  baseURL,
}, testInfo) => {
  // Many entries, screens and filters on a shared machine.
  test.slow();
  // More than a page of entries: 51 changes of a tenant of its own.
  const filler = await accounts.tenant();
  const admin = await accounts.signedIn(berth.admin);
  const changes = await Promise.all(
    Array.from({ length: 51 }, (_, n) => admin.patch(`/api/system/tenants/${filler.id}`, { data: { title: `${filler.title} v${n + 1}` } })),
  );
  expect(changes.map((answer) => answer.status())).toEqual(changes.map(() => 200));
  const tenant = await accounts.tenant(`Audit ${uniqueToken()}`);
  const customer = await accounts.customer('audited');
  await openAs(page, baseURL ?? '', berth.admin, '/system/audit');

  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
  const created = entry(page, 'tenant.created', tenant.title);
  await expect(created).toHaveCount(1);
  await expect(created).toContainText('Tenant created');
  await expect(created).toContainText('Super Admin');
  await expect(created).toContainText(berth.admin.email);
  await expect(created).toContainText('127.0.0.1');
  // Super admins see whose tenant an entry belongs to.
  await expect(created).toContainText(tenant.title);
  const customerCreated = entry(page, 'customer.created', customer.email);
  await expect(customerCreated).toContainText('Customer created');
  await expect(customerCreated).toContainText('127.0.0.1');
  // The time in the user's language (en-US here), not an ISO string.
  await expect(customerCreated.locator('time')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M$/);
  await reviewScreen(page, testInfo, 'audit', MAIN);

  // ---- by action ----
  await page.getByRole('textbox', { name: 'Action', exact: true }).fill('Tenant created');
  await page.getByRole('option', { name: 'Tenant created' }).click();
  await expect(page).toHaveURL((url) => url.searchParams.get('action') === 'tenant.created');
  await expect(entries(page).first()).toBeVisible();
  await expect(entries(page).and(page.locator(':not([data-action="tenant.created"])'))).toHaveCount(0);
  await expect(created).toHaveCount(1);

  // ---- and by user: a click on who did it ----
  await created.getByRole('button', { name: 'Super Admin' }).click();
  await expect(page).toHaveURL((url) => url.searchParams.has('user_id') && url.searchParams.get('action') === 'tenant.created');
  await expect(page.getByText('User: Super Admin')).toBeVisible();
  await expect(created).toHaveCount(1);
  await reviewScreen(page, testInfo, 'audit-filtered', MAIN);

  // ---- by date: nothing from tomorrow on ----
  await page.getByRole('textbox', { name: 'From', exact: true }).fill(await day(page, 1));
  await expect(page.getByText('No entry matches these filters.')).toBeVisible();
  await reviewScreen(page, testInfo, 'audit-empty', MAIN);
  const today = await day(page, 0);
  await page.getByRole('textbox', { name: 'From', exact: true }).fill(today);
  await expect(created).toHaveCount(1);
  // The date reads as the panel's language writes it, whatever the browser's language.
  const [year, month, date] = today.split('-');
  await page.getByRole('textbox', { name: 'From', exact: true }).blur();
  await expect(page.getByRole('textbox', { name: 'From', exact: true })).toHaveValue(`${month}/${date}/${year}`);
  // Its calendar's weeks start on Sunday, as calendars in American English do.
  await page.getByRole('textbox', { name: 'From', exact: true }).click();
  await expect(page.getByRole('row', { name: 'Su Mo Tu We Th Fr Sa', exact: true })).toBeVisible();
  await reviewScreen(page, testInfo, 'audit-date-calendar', MAIN);
  await page.keyboard.press('Escape');

  // ---- pages of 50, newest first ----
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(entries(page)).toHaveCount(50);
  const firstPage = (await entries(page).first().textContent()) ?? '';
  const pager = page.getByRole('navigation', { name: 'Pages of the audit log' });
  await pager.getByRole('button', { name: 'Older' }).click();
  await expect(pager).toContainText('Page 2');
  await expect(entries(page).first()).not.toHaveText(firstPage);
  await pager.getByRole('button', { name: 'Newer' }).click();
  await expect(pager).toContainText('Page 1');
  await expect(entries(page).first()).toHaveText(firstPage);
});

test.describe('as a host admin', () => {
  // Another tenant's entries asked for by address answer 404, which the browser logs.
  test.use({ allowedConsoleErrors: [/the server responded with a status of 404/] });

  test("reads only their tenant's entries, with the admin behind a customer's action", async ({
    page,
    accounts,
    berth,
    baseURL,
  }, testInfo) => {
    const hostAdmin = await accounts.hostAdmin('audit-admin');
    const elsewhere = await accounts.tenant(`Elsewhere ${uniqueToken()}`);
    const customer = await accounts.customer('audit-customer');
    // The host admin logs in as the customer and adds a domain for them.
    const asAdmin = await accounts.signedIn(hostAdmin);
    expect((await asAdmin.post(`/api/system/customers/${customer.id}/impersonate`)).status()).toBe(200);
    const domain = `audit-${uniqueToken()}.test`;
    expect((await asAdmin.post('/api/host/domain', { data: { name: domain } })).status()).toBe(201);

    expect((await asAdmin.post('/api/impersonation/stop')).status()).toBeLessThan(300);
    const credited = await asAdmin.post('/api/system/credit/adjustments', {
      data: { user_id: customer.id, amount: 150_00, description: 'Goodwill' },
    });
    expect(credited.status(), await credited.text()).toBe(201);

    await openAs(page, baseURL ?? '', hostAdmin, '/system/audit');
    await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible();
    // Money in words, the person by name with a link to them.
    const person = `${customer.givenName} ${customer.surname}`;
    const credit = entry(page, 'credit.adjusted', person);
    await expect(credit.getByTestId('audit-sentence')).toHaveText(`€150.00 credited to ${person} (balance €150.00)`);
    await expect(credit).toContainText('Reason: Goodwill');
    await expect(credit.getByRole('link', { name: person })).toHaveAttribute('href', `/system/customers/${customer.id}`);
    const domainCreated = entry(page, 'domain.created', domain);
    await expect(domainCreated).toContainText('Domain created');
    await expect(domainCreated).toContainText(`${customer.givenName} ${customer.surname}`);
    await expect(domainCreated).toContainText(`by ${hostAdmin.givenName} ${hostAdmin.surname}, logged in as this user`);
    await expect(entry(page, 'impersonation.started', customer.email)).toContainText('Logged in as customer');
    await expect(entry(page, 'customer.created', customer.email)).toContainText(berth.admin.email);
    await expect(entry(page, 'tenant.admin_assigned', hostAdmin.email)).toContainText('Host admin assigned');
    // Another tenant's entries are not there, and there is no tenant filter.
    await expect(page.getByText(elsewhere.title)).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Tenant', exact: true })).toHaveCount(0);
    await reviewScreen(page, testInfo, 'audit-host-admin', MAIN);

    // In the reader's language.
    expect((await page.request.patch('/api/user/language', { data: { language: 'cs' } })).status()).toBe(200);
    await page.reload();
    await expect(credit.getByTestId('audit-sentence')).toHaveText(`150,00\u00a0€ připsáno: ${person} (zůstatek 150,00\u00a0€)`);
    await expect(credit).toContainText('Důvod: Goodwill');
    expect((await page.request.patch('/api/user/language', { data: { language: 'en' } })).status()).toBe(200);
    await page.reload();

    // Not even when asked for by address.
    await page.goto(`/system/audit?action=tenant.created`);
    await expect(page.getByText('No entry matches these filters.')).toBeVisible();
    await page.goto(`/system/audit?tenant_id=${elsewhere.id}`);
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByTestId('audit-table')).toHaveCount(0);
  });
});

test('a customer gets no audit log', async ({ page, accounts, baseURL }, testInfo) => {
  const customer = await accounts.customer('audit-nosy');
  await openAs(page, baseURL ?? '', customer, '/system/audit');
  await expect(page.getByRole('heading', { level: 1, name: 'Not available' })).toBeVisible();
  await expect(page.getByTestId('audit-table')).toHaveCount(0);
  await reviewScreen(page, testInfo, 'audit-not-allowed', MAIN);
  expect((await page.request.get('/api/system/audit')).status()).toBe(403);
});
