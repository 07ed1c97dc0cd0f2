import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { uniqueToken } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';
import { signInPage, superAdmin } from '../support/shop.ts';

// An admin's view of a customer's credit, /system/customers/{id}/credit: the balance, the ledger
// with its type filter and CSV export (GET /api/system/credit/{userId}), and adjusting the credit
// from there. A host admin sees the customers of their own tenant only: another tenant's customer
// is "not found". The ledger rows are made through the API (admin adjustments and a purchase
// paid from credit).

const SHELL_PAGE = { include: 'main' };
const CSV_HEADER = 'date,type,description,amount,currency,amount_formatted,invoice_id';

// The page of another tenant's customer asks the API and is answered 404.
test.use({ allowedConsoleErrors: [/the server responded with a status of 404/] });

interface Entry {
  type: string;
  description: string;
  amount: { amount: number; formatted: string };
  invoice_id: number | null;
}

async function adjust(api: APIRequestContext, userId: number, amount: number, description: string): Promise<void> {
  const answer = await api.post('/api/system/credit/adjustments', { data: { user_id: userId, amount, description } });
  expect(answer.status(), `POST /api/system/credit/adjustments: ${await answer.text()}`).toBe(201);
}

/** The customer's own view of their credit (GET /api/credit): what the admin's page must show. */
async function ownCredit(api: APIRequestContext): Promise<{ balance: string; entries: Entry[] }> {
  const answer = await api.get('/api/credit');
  expect(answer.status()).toBe(200);
  const { data } = (await answer.json()) as { data: { balance: { formatted: string }; entries: Entry[] } };
  return { balance: data.balance.formatted, entries: data.entries };
}

/** Clicks "Export CSV" and reads the file the browser downloaded. */
async function downloadCsv(page: Page): Promise<{ name: string; lines: string[] }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  const text = await readFile(await download.path(), 'utf8');
  return { name: download.suggestedFilename(), lines: text.trim().split('\r\n') };
}

test("a host admin reads a customer's credit, filters and exports it, adjusts it; another tenant's customer is not found", async ({
  page,
  accounts,
  berth,
}, testInfo) => {
  test.slow();
  const admin = await accounts.hostAdmin('credit-admin');
  const customer = await accounts.customer('credit-customer');
  const adminApi = await accounts.signedIn(admin);
  const customerApi = await accounts.signedIn(customer);

  // ---- the ledger: two adjustments by the host admin and a domain paid from the credit ----
  await adjust(adminApi, customer.id, 100_00, 'Welcome credit');
  await adjust(adminApi, customer.id, -15_00, 'Correction of a double booking');
  const domain = `e2e-credit-${uniqueToken()}.com`;
  const added = await customerApi.post('/api/cart/items', { data: { kind: 'domain_register', name: domain } });
  expect(added.status(), `POST /api/cart/items: ${await added.text()}`).toBe(200);
  const bought = await customerApi.post('/api/shop/checkout', { data: { payment: 'credit', idempotency_key: `e2e-${uniqueToken(8)}` } });
  expect(bought.status(), `POST /api/shop/checkout: ${await bought.text()}`).toBe(201);
  const own = await ownCredit(customerApi);
  expect(own.entries.map((entry) => entry.type)).toEqual(['purchase', 'manual', 'manual']);
  const purchase = own.entries[0] as Entry;
  expect(purchase.invoice_id).not.toBeNull();

  // ---- another tenant's customer, with credit of their own ----
  const root = await superAdmin(accounts, berth.admin);
  const other = await accounts.tenant();
  const foreign = await accounts.customer('credit-foreign', other.id);
  await adjust(root, foreign.id, 42_00, 'Foreign credit');

  // ---- from the customer's page to their credit ----
  await signInPage(page, admin);
  await page.goto(`/system/customers/${customer.id}`);
  const name = `${customer.givenName} ${customer.surname}`;
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await page.getByRole('link', { name: 'Credit', exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === `/system/customers/${customer.id}/credit`);
  await expect(page.getByRole('heading', { level: 1, name: `Credit of ${name}` })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(customer.email);
  await expect(page.getByTestId('credit-balance')).toHaveText(own.balance);
  const rows = page.getByTestId('credit-entry');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText(purchase.description);
  await expect(rows.nth(0)).toContainText('Purchase');
  await expect(rows.nth(0)).toContainText(purchase.amount.formatted);
  await expect(rows.nth(0).getByRole('link', { name: 'Invoice (PDF)' })).toHaveAttribute(
    'href',
    `/api/system/invoices/${purchase.invoice_id}/pdf`,
  );
  await expect(rows.nth(1)).toContainText('Correction of a double booking');
  await expect(rows.nth(1)).toContainText('-€15.00');
  await expect(rows.nth(2)).toContainText('Welcome credit');
  await expect(rows.nth(2)).toContainText('+€100.00');
  await reviewScreen(page, testInfo, 'customer-credit', SHELL_PAGE);

  // ---- the whole ledger as CSV ----
  const all = await downloadCsv(page);
  expect(all.name).toBe(`credit-${customer.id}.csv`);
  expect(all.lines[0]).toBe(CSV_HEADER);
  expect(all.lines.slice(1).map((line) => line.split(',').slice(1, 2)[0])).toEqual(['purchase', 'manual', 'manual']);
  expect(all.lines[1]).toContain(`,${purchase.invoice_id}`);
  expect(all.lines[2]).toMatch(/^[0-9T:.-]+Z,manual,"Correction of a double booking",-15\.00,EUR,/);
  expect(all.lines[3]).toMatch(/^[0-9T:.-]+Z,manual,"Welcome credit",100\.00,EUR,"€100\.00",$/);

  // ---- filtered by type: the table and the export follow ----
  const type = page.getByLabel('Type');
  await type.selectOption('manual');
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole('main')).not.toContainText(purchase.description);
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
    'href',
    `/api/system/credit/${customer.id}/export.csv?type=manual`,
  );
  const manual = await downloadCsv(page);
  expect(manual.lines).toHaveLength(3);
  expect(manual.lines[0]).toBe(CSV_HEADER);
  expect(manual.lines[1]).toContain('"Correction of a double booking",-15.00,EUR,');
  expect(manual.lines[2]).toContain('"Welcome credit",100.00,EUR,');
  await type.selectOption('refund');
  await expect(page.getByText('Nothing here yet.')).toBeVisible();
  expect((await downloadCsv(page)).lines).toEqual([CSV_HEADER]);
  await type.selectOption('purchase');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(purchase.description);
  await reviewScreen(page, testInfo, 'customer-credit-filtered', SHELL_PAGE);
  await type.selectOption('');
  await expect(rows).toHaveCount(3);

  // ---- adjusting from here: the form is preset to this customer ----
  await page.getByRole('button', { name: 'Adjust credit' }).click();
  const dialog = page.getByRole('dialog', { name: "Adjust a customer's credit" });
  await expect(dialog.getByRole('textbox', { name: 'Customer' })).toHaveValue(`${name} <${customer.email}>`);
  await reviewScreen(page, testInfo, 'customer-credit-adjust', { include: '[role="dialog"]' });
  await dialog.getByRole('textbox', { name: 'Amount' }).fill('5');
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Thank-you bonus');
  await dialog.getByRole('button', { name: 'Adjust credit' }).click();
  await expect(dialog).toBeHidden();
  const after = await ownCredit(customerApi);
  await expect(page.getByRole('main')).toContainText(`The credit balance is now ${after.balance}.`);
  await expect(page.getByTestId('credit-balance')).toHaveText(after.balance);
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText('Thank-you bonus');
  await expect(rows.nth(0)).toContainText('+€5.00');

  // ---- another tenant's customer: not found, on screen and in the API ----
  await page.goto(`/system/customers/${foreign.id}/credit`);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('main')).not.toContainText('Foreign credit');
  expect((await adminApi.get(`/api/system/credit/${foreign.id}`)).status()).toBe(404);
  expect((await adminApi.get(`/api/system/credit/${foreign.id}/export.csv`)).status()).toBe(404);
  // The customer themselves gets no admin view of anyone's credit.
  expect((await customerApi.get(`/api/system/credit/${customer.id}`)).status()).toBe(403);
});
