import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { reviewScreen } from '../support/review.ts';
import { partnerTenant, signInAt, superAdmin } from '../support/shop.ts';

// The tenant's bank account on /system/partner/catalogue: a host admin of a selling tenant sets
// it (the server checks the IBAN and names the field), and the tenant's customers are offered
// bank transfer at checkout only while it is set.

const SECTION = { include: 'section[aria-labelledby="bank-account-heading"]' };
const DIALOG = { include: '[role="dialog"]' };

const bankSection = (page: Page) => page.getByRole('region', { name: 'Bank account for transfers' });
const payWith = (page: Page) => page.getByRole('radiogroup', { name: 'Pay with' });

test('a host admin sets the bank account, customers are offered bank transfer until it is removed', async ({
  page,
  browser,
  accounts,
  berth,
}, testInfo) => {
  test.slow();
  const admin = await superAdmin(accounts, berth.admin);
  // A fresh selling tenant; the helper gives it a bank account, which this test starts without.
  const partner = await partnerTenant(admin, berth.baseURL);
  const cleared = await admin.delete(`/api/system/tenants/${partner.tenantId}/bank-account`);
  expect(cleared.status(), await cleared.text()).toBe(200);
  const customer = await accounts.customer('bank-buyer', partner.tenantId);

  // ---- no account yet: bank transfer is not offered ----
  await signInAt(page.context(), partner.origin, partner.admin);
  await page.goto(`${partner.origin}/system/partner/catalogue`);
  const section = bankSection(page);
  await expect(section.getByTestId('bank-account-empty')).toContainText('bank transfer is not offered');
  await expect(section).toContainText('Bank transfer not offered');
  await reviewScreen(page, testInfo, 'bank-account-empty', SECTION);

  // ---- a wrong IBAN: the server's reason under the IBAN field ----
  await section.getByRole('button', { name: 'Add bank account' }).click();
  const holder = section.getByRole('textbox', { name: 'Account holder' });
  const iban = section.getByRole('textbox', { name: 'IBAN' });
  const bic = section.getByRole('textbox', { name: 'BIC (optional)' });
  await expect(holder).toBeFocused();
  await holder.fill('Partner Hosting GmbH');
  await iban.fill('DE89 3704 0044 0532 0130 01');
  await bic.fill('cobadeffxxx');
  await section.getByRole('button', { name: 'Save bank account' }).click();
  await expect(iban).toHaveAttribute('aria-invalid', 'true');
  await expect(iban).toHaveAccessibleDescription(/Enter a valid IBAN/);
  await expect(holder).not.toHaveAttribute('aria-invalid', 'true');
  await expect(bic).not.toHaveAttribute('aria-invalid', 'true');
  await reviewScreen(page, testInfo, 'bank-account-iban-error', SECTION);

  // ---- a valid one: saved, shown grouped in fours, kept after a reload ----
  await iban.fill('DE89370400440532013000');
  await expect(iban).not.toHaveAttribute('aria-invalid', 'true');
  await section.getByRole('button', { name: 'Save bank account' }).click();
  await expect(page.getByText('The bank account has been saved.')).toBeVisible();
  const shown = async () => {
    await expect(section.getByTestId('bank-account-name')).toHaveText('Partner Hosting GmbH');
    await expect(section.getByTestId('bank-account-iban')).toHaveText('DE89 3704 0044 0532 0130 00');
    await expect(section.getByTestId('bank-account-bic')).toHaveText('COBADEFFXXX');
    await expect(section).toContainText('Bank transfer offered');
  };
  await shown();
  await reviewScreen(page, testInfo, 'bank-account-saved', SECTION);
  await page.reload();
  await shown();

  // ---- the tenant's customer is offered bank transfer at checkout ----
  const customerContext = await browser.newContext({ baseURL: partner.origin });
  try {
    const shop = await customerContext.newPage();
    await signInAt(customerContext, partner.origin, customer);
    await shop.goto(`${partner.origin}/shop`);
    await shop.getByRole('article', { name: 'Starter' }).getByRole('button', { name: 'Add to cart' }).click();
    await expect(shop.getByTestId('cart-count')).toHaveText('1');
    await shop.goto(`${partner.origin}/shop/cart`);
    await expect(payWith(shop).getByRole('radio', { name: /Bank transfer/ })).toBeVisible();
    await expect(payWith(shop).getByRole('radio', { name: /Credit balance/ })).toBeVisible();

    // ---- the host admin removes the account, after confirming ----
    await section.getByRole('button', { name: 'Remove bank account' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove the bank account?' });
    await expect(confirm).toContainText('DE89 3704 0044 0532 0130 00');
    await reviewScreen(page, testInfo, 'bank-account-remove', DIALOG);
    await confirm.getByRole('button', { name: 'Remove bank account' }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText('The bank account has been removed.')).toBeVisible();
    await expect(section.getByTestId('bank-account-empty')).toBeVisible();
    await page.reload();
    await expect(bankSection(page).getByTestId('bank-account-empty')).toBeVisible();

    // ---- and bank transfer is no longer offered ----
    await shop.reload();
    await expect(payWith(shop).getByRole('radio', { name: /Credit balance/ })).toBeVisible();
    await expect(payWith(shop).getByRole('radio', { name: /Bank transfer/ })).toHaveCount(0);
  } finally {
    await customerContext.close();
  }
});
