import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { reviewScreen } from '../support/review.ts';
import { partnerTenant, signInAt, superAdmin, TENANT_IBAN } from '../support/shop.ts';

// docs/product.md §6: a partner (host admin of a tenant that sells through its own
// shop, host_purchases) tops up credit by bank transfer from the header's add-credit dialog;
// the operator's super admin confirms the transfer on /system/partner/invoices; the partner's
// balance, ledger and header then show the credit. Also the partner's promo codes and payment
// methods, and the bank statement import.

const SHELL_PAGE = { include: 'main' };

const creditLink = (page: Page) => page.getByTestId('partner-credit');

test('a partner tops up credit by bank transfer, an admin marks it paid, the credit arrives', async ({
  page,
  browser,
  accounts,
  berth,
}, testInfo) => {
  test.slow();
  const admin = await superAdmin(accounts, berth.admin);
  const partner = await partnerTenant(admin, berth.baseURL);
  await signInAt(page.context(), partner.origin, partner.admin);
  await page.goto(`${partner.origin}/dashboard`);
  await expect(creditLink(page)).toHaveAccessibleName('Partner credit €0.00: add credit');

  // ---- the add-credit dialog: limits, then instructions with the QR code and reference ----
  await creditLink(page).click();
  const dialog = page.getByRole('dialog', { name: 'Add partner credit' });
  const amount = dialog.getByRole('textbox', { name: 'Amount' });
  await expect(amount).toBeFocused();
  await expect(dialog.getByRole('radio', { name: 'Bank transfer' })).toBeChecked();
  await reviewScreen(page, testInfo, 'add-credit-dialog', { include: '[role="dialog"]' });
  await amount.fill('1');
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toContainText(/Enter an amount from €.* to €.*\./);
  await amount.fill('250');
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();

  const pay = page.getByRole('dialog', { name: 'Pay for your credit' });
  await expect(pay.getByTestId('transfer-amount')).toHaveText('€250.00');
  await expect(pay.getByRole('img', { name: 'Payment QR code for your banking app' })).toHaveAttribute(
    'src',
    /^data:image\/svg\+xml;base64,/,
  );
  await expect(pay).toContainText(TENANT_IBAN.replace(/(.{4})(?=.)/g, '$1 '));
  const reference = (await pay.getByTestId('transfer-reference').innerText()).trim();
  expect(reference.length).toBeGreaterThan(3);
  await reviewScreen(page, testInfo, 'add-credit-instructions', { include: '[role="dialog"]' });
  await pay.getByRole('button', { name: 'Done' }).click();
  await expect(pay).toBeHidden();

  // ---- the super admin confirms the transfer ----
  const adminContext = await browser.newContext({ baseURL: partner.origin });
  try {
    const adminPage = await adminContext.newPage();
    await signInAt(adminContext, partner.origin, berth.admin);
    await adminPage.goto(`${partner.origin}/system/partner/invoices`);
    await expect(adminPage.getByRole('heading', { level: 1, name: 'Customer invoices' })).toBeVisible();
    const row = adminPage.getByTestId('invoice-row').filter({ hasText: partner.admin.email });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Unpaid');
    await expect(row).toContainText('€250.00');
    await reviewScreen(adminPage, testInfo, 'partner-invoices', SHELL_PAGE);
    await row.getByRole('button', { name: /^Mark as paid: / }).click();
    const confirm = adminPage.getByRole('dialog', { name: /^Mark invoice .* as paid\?$/ });
    await expect(confirm).toContainText('€250.00');
    await confirm.getByLabel('Bank transaction id').fill(`BANK-${reference}`);
    await reviewScreen(adminPage, testInfo, 'partner-invoices-mark-paid', { include: '[role="dialog"]' });
    await confirm.getByRole('button', { name: 'Mark as paid' }).click();
    await expect(confirm).toBeHidden();
    await expect(adminPage.getByTestId('invoice-row').filter({ hasText: partner.admin.email })).toHaveCount(0);
  } finally {
    await adminContext.close();
  }

  // ---- the partner's balance, ledger and header ----
  await page.goto(`${partner.origin}/system/partner/credit`);
  await expect(page.getByTestId('credit-balance')).toHaveText('€250.00');
  const entry = page.getByTestId('credit-entry');
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText('Top-up');
  await expect(entry).toContainText('+€250.00');
  await expect(creditLink(page)).toHaveAccessibleName('Partner credit €250.00');
  await reviewScreen(page, testInfo, 'partner-credit', SHELL_PAGE);

  // Filters: nothing of type "Purchase"; the export follows the filter.
  await page.getByLabel('Type').selectOption('purchase');
  await expect(page.getByText('Nothing here yet.')).toBeVisible();
  const exportHref = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
  expect(exportHref).toBe('/api/credit/export.csv?type=purchase');
  await page.getByLabel('Type').selectOption('');
  // Fetched by the page (Node cannot resolve the tenant's *.localhost host).
  const csv = await page.evaluate(async () => {
    const answer = await fetch('/api/credit/export.csv');
    return { status: answer.status, type: answer.headers.get('content-type'), text: await answer.text() };
  });
  expect(csv.status).toBe(200);
  expect(csv.type).toContain('text/csv');
  expect(csv.text).toContain('top_up');
});

test('a partner manages promo codes and payment methods', async ({ page, accounts, berth }, testInfo) => {
  test.slow();
  const admin = await superAdmin(accounts, berth.admin);
  const partner = await partnerTenant(admin, berth.baseURL);
  await signInAt(page.context(), partner.origin, partner.admin);

  // ---- promo codes ----
  await page.goto(`${partner.origin}/system/partner/promo`);
  await expect(page.getByRole('heading', { level: 1, name: 'Promo codes' })).toBeVisible();
  await expect(page.getByText('No promo codes yet.')).toBeVisible();
  await page.getByRole('button', { name: 'New promo code' }).click();
  const dialog = page.getByRole('dialog', { name: 'New promo code' });
  await dialog.getByLabel('Code').fill('x');
  await dialog.getByRole('button', { name: 'Create code' }).click();
  await expect(dialog.getByLabel('Code')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Code').fill('SPRING25');
  await dialog.getByLabel('Discount (%)').fill('25');
  await dialog.getByLabel('Maximum uses').fill('10');
  await dialog.getByRole('checkbox', { name: 'Domain registration' }).check();
  await dialog.getByRole('checkbox', { name: 'Once per customer' }).check();
  await reviewScreen(page, testInfo, 'partner-promo-dialog', { include: '[role="dialog"]' });
  await dialog.getByRole('button', { name: 'Create code' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('promo-row').filter({ hasText: 'SPRING25' });
  await expect(row).toContainText('25');
  await expect(row).toContainText('0 of 10');
  await expect(row).toContainText('Once per customer');
  await expect(row).toContainText('Domain registration');
  await reviewScreen(page, testInfo, 'partner-promo', SHELL_PAGE);

  // A second code with the same name: the server's error on the field.
  await page.getByRole('button', { name: 'New promo code' }).click();
  await dialog.getByLabel('Code').fill('SPRING25');
  await dialog.getByRole('button', { name: 'Create code' }).click();
  await expect(dialog.getByLabel('Code')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Editing: a fixed amount instead.
  await row.getByRole('button', { name: 'Edit SPRING25' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit SPRING25' });
  await edit.getByLabel('Type').selectOption('fixed');
  await edit.getByLabel('Discount (amount)').fill('5');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('€5.00');

  // ---- payment methods: IBAN validation, add, default, remove ----
  await page.goto(`${partner.origin}/account/payment-methods`);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment methods' })).toBeVisible();
  await expect(page.getByText('No payment methods saved yet.')).toBeVisible();
  const form = page.getByRole('region', { name: 'Add a bank account' });
  await form.getByLabel('Account holder').fill('Pavla Partner');
  await form.getByLabel('IBAN').fill('CZ65 0800 0000 1920 0014 5398');
  await form.getByRole('button', { name: 'Add bank account' }).click();
  await expect(form.getByLabel('IBAN')).toHaveAttribute('aria-invalid', 'true');
  await expect(form).toContainText('This IBAN is not valid.');
  await reviewScreen(page, testInfo, 'payment-methods-iban-error', SHELL_PAGE);
  await form.getByLabel('IBAN').fill('CZ65 0800 0000 1920 0014 5399');
  await form.getByRole('button', { name: 'Add bank account' }).click();
  const methods = page.getByTestId('payment-method');
  await expect(methods).toHaveCount(1);
  await expect(methods).toContainText('Default');
  await form.getByLabel('Account holder').fill('Pavla Partner (savings)');
  await form.getByLabel('IBAN').fill('DE89370400440532013000');
  await form.getByRole('button', { name: 'Add bank account' }).click();
  await expect(methods).toHaveCount(2);
  const savings = methods.filter({ hasText: 'savings' });
  await savings.getByRole('button', { name: 'Make default' }).click();
  await expect(savings).toContainText('Default');
  await reviewScreen(page, testInfo, 'payment-methods', SHELL_PAGE);
  await savings.getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove this payment method?' });
  await expect(confirm).toContainText('DE89 3704 0044 0532 0130 00');
  await reviewScreen(page, testInfo, 'payment-methods-remove', { include: '[role="dialog"]' });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(confirm).toBeHidden();
  await expect(methods).toHaveCount(1);
  await expect(methods).toContainText('Default');
});

test('an admin imports a bank statement: each line shows what became of it', async ({ page, accounts, berth }, testInfo) => {
  test.slow();
  const admin = await superAdmin(accounts, berth.admin);
  const partner = await partnerTenant(admin, berth.baseURL);
  // The partner's top-up, asked from its own host (the tenant is the host's; Node cannot resolve
  // *.localhost, the browser can).
  await signInAt(page.context(), partner.origin, partner.admin);
  await page.goto(`${partner.origin}/dashboard`);
  const invoice = await page.evaluate(async () => {
    const answer = await fetch('/api/credit/top-up', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 120_00, payment: 'bank_transfer' }),
    });
    return ((await answer.json()) as { data: { invoice: { number: string; payment_reference: string } } }).data.invoice;
  });
  await page.context().clearCookies();

  await signInAt(page.context(), partner.origin, berth.admin);
  await page.goto(`${partner.origin}/system/partner/invoices`);
  await expect(page.getByTestId('invoice-row').filter({ hasText: invoice.number })).toHaveCount(1);
  const csv = [
    'date,amount,currency,reference,counterparty',
    `2026-11-20,120.00,EUR,${invoice.payment_reference},Pavla Partner`,
    '2026-11-20,99.00,EUR,UNKNOWN-REF,Somebody Else',
  ].join('\n');
  await page.locator('input[type="file"]').setInputFiles({ name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Import' }).click();
  const lines = page.getByTestId('statement-line');
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0)).toContainText('Paid');
  await expect(lines.nth(0)).toContainText(invoice.number);
  await expect(lines.nth(1)).toContainText('No matching invoice');
  await expect(page.getByTestId('invoice-row').filter({ hasText: invoice.number })).toHaveCount(0);
  await reviewScreen(page, testInfo, 'partner-invoices-statement', SHELL_PAGE);
});
