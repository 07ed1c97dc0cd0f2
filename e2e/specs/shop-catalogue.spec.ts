import type { APIRequestContext } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { newPassword, uniqueEmail, uniqueToken } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';
import { openMenu } from '../support/shell-fixtures.ts';
import { isPhone } from '../support/shell-helpers.ts';
import { partnerTenant, signInAt, superAdmin } from '../support/shop.ts';

// a host admin sets the tenant's prices and VAT rate on /system/partner/catalogue; every
// price shows with and without VAT, and the tenant's customers see the new prices in /shop.
// Customers may not open the page.

const SHELL_PAGE = { include: 'main' };
const DIALOG = { include: '[role="dialog"]' };

/** A customer of the tenant `tenantId`, made by the super admin. */
async function tenantCustomer(admin: APIRequestContext, tenantId: number) {
  const user = { email: uniqueEmail('buyer'), password: newPassword() };
  const answer = await admin.post('/api/system/customers', {
    data: {
      email: user.email,
      password: user.password,
      contact: { given_name: 'Berta', sn: `Buyer ${uniqueToken(2)}` },
      language: 'en',
      tenant_id: tenantId,
    },
  });
  expect(answer.status(), `POST /api/system/customers: ${await answer.text()}`).toBe(201);
  return user;
}

test('a host admin changes VAT and prices, customers see them in the shop', async ({ page, browser, accounts, berth }, testInfo) => {
  test.slow();
  const admin = await superAdmin(accounts, berth.admin);
  const partner = await partnerTenant(admin, berth.baseURL);
  const customer = await tenantCustomer(admin, partner.tenantId);
  await signInAt(page.context(), partner.origin, partner.admin);
  await page.goto(`${partner.origin}/system/partner/catalogue`);
  await expect(page.getByRole('heading', { level: 1, name: 'Prices & catalogue' })).toBeVisible();
  // The System menu leads here (on a phone, in the drawer behind the menu button).
  const phone = isPhone(testInfo.project.name);
  const nav = await openMenu(page, phone);
  await expect(nav.getByRole('link', { name: 'Prices & catalogue' })).toHaveAttribute('href', '/system/partner/catalogue');
  if (phone) {
    await page.keyboard.press('Escape');
    await expect(nav).toHaveCount(0);
  }

  // ---- the default catalogue at 21 % VAT: €3.90 net is €4.72 with VAT ----
  const plans = page.getByRole('region', { name: 'Hosting plans' });
  const starter = plans.getByTestId('plan-row').filter({ hasText: 'Starter' });
  await expect(starter).toContainText('€4.72 incl. VAT');
  await expect(starter).toContainText('€3.90 excl. VAT');
  await expect(page.getByRole('region', { name: 'Domain prices' }).getByTestId('tld-row').filter({ hasText: '.com' })).toContainText(
    '€15.61 incl. VAT',
  );
  await reviewScreen(page, testInfo, 'catalogue', SHELL_PAGE);

  // ---- VAT 10 %: the gross prices follow ----
  const settings = page.getByRole('region', { name: 'Shop settings' });
  await settings.getByRole('textbox', { name: 'VAT rate' }).fill('10');
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(starter).toContainText('€4.29 incl. VAT');
  await expect(starter).toContainText('€3.90 excl. VAT');
  await expect(plans).toContainText('customers pay them with 10 % VAT');

  // ---- a new plan, then a new price ----
  const title = `Agency ${uniqueToken(2)}`;
  await plans.getByRole('button', { name: 'Add plan' }).click();
  const create = page.getByRole('dialog', { name: 'Add a hosting plan' });
  await expect(create.getByRole('textbox', { name: 'Plan', exact: true })).toBeFocused();
  await create.getByRole('button', { name: 'Add plan' }).click();
  await expect(create.getByRole('textbox', { name: 'Plan', exact: true })).toHaveAttribute('aria-invalid', 'true');
  await create.getByRole('textbox', { name: 'Plan', exact: true }).fill(title);
  await create.getByRole('textbox', { name: 'Description' }).fill('For agencies with many sites');
  await create.getByRole('textbox', { name: 'Price per month (without VAT)' }).fill('12.50');
  await create.getByRole('textbox', { name: 'Price per year (without VAT)' }).fill('125');
  await expect(create).toContainText('With VAT: €13.75');
  // What the plan includes: a whole number from 1, empty for unlimited.
  const domainsIncluded = create.getByRole('textbox', { name: 'Domains included' });
  await domainsIncluded.fill('0');
  await create.getByRole('textbox', { name: 'Mailboxes included' }).fill('25');
  await create.getByRole('button', { name: 'Add plan' }).click();
  await expect(domainsIncluded).toHaveAccessibleDescription(/Enter a whole number from 1, or leave it empty for unlimited\./);
  await domainsIncluded.fill('5');
  // The customer's PHP pool: empty is the web server's default, a number out of range is refused.
  const workers = create.getByRole('textbox', { name: 'PHP workers' });
  await expect(workers).toHaveAttribute('placeholder', 'Default (5)');
  await workers.fill('500');
  await create.getByRole('button', { name: 'Add plan' }).click();
  await expect(workers).toHaveAccessibleDescription(/Enter a whole number from 1 to 100/);
  await workers.fill('8');
  await create.getByRole('textbox', { name: 'PHP memory per request (MB)' }).fill('256');
  // Mail that leaves: empty is the platform's default, never unlimited.
  const mailPerHour = create.getByRole('textbox', { name: 'Messages per mailbox and hour' });
  await expect(mailPerHour).toHaveAttribute('placeholder', 'Default (200)');
  await mailPerHour.fill('0');
  await create.getByRole('button', { name: 'Add plan' }).click();
  await expect(mailPerHour).toHaveAccessibleDescription(/Enter a whole number from 1 to 100000/);
  await mailPerHour.fill('500');
  await reviewScreen(page, testInfo, 'catalogue-plan-dialog', DIALOG);
  await create.getByRole('button', { name: 'Add plan' }).click();
  await expect(create).toBeHidden();
  const agency = plans.getByTestId('plan-row').filter({ hasText: title });
  await expect(agency).toContainText('€13.75 incl. VAT');
  await expect(agency).toContainText('€12.50 excl. VAT');

  await agency.getByRole('button', { name: `Edit ${title}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit plan ${title}` });
  const yearly = edit.getByRole('textbox', { name: 'Price per year (without VAT)' });
  await expect(yearly).toHaveValue('125.00');
  await expect(edit.getByRole('textbox', { name: 'Messages per mailbox and hour' })).toHaveValue('500');
  await yearly.fill('150');
  await expect(edit).toContainText('With VAT: €165.00');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(agency).toContainText('€165.00 incl. VAT');
  await expect(agency).toContainText('€150.00 excl. VAT');
  await expect(agency).toContainText('€13.75 incl. VAT');

  // ---- the tenant's customer sees the plan at its new price ----
  const customerContext = await browser.newContext({ baseURL: partner.origin });
  try {
    const shop = await customerContext.newPage();
    await signInAt(customerContext, partner.origin, customer);
    await shop.goto(`${partner.origin}/shop`);
    const card = shop.getByRole('region', { name: 'Hosting plans' }).getByRole('article', { name: title });
    await expect(card.getByTestId('plan-limits')).toHaveText('5 domains · 25 mailboxes · Unlimited disk space');
    // The shop opens on yearly prices.
    await expect(card).toContainText('€165.00 per year');
    await expect(card).toContainText('€150.00 net + €15.00 VAT');
  } finally {
    await customerContext.close();
  }

  // ---- a TLD that is already sold: the server's field error on the field ----
  const tlds = page.getByRole('region', { name: 'Domain prices' });
  await tlds.getByRole('button', { name: 'Add domain ending' }).click();
  const tld = page.getByRole('dialog', { name: 'Sell a domain ending' });
  const ending = tld.getByRole('textbox', { name: 'Domain ending' });
  await ending.fill('.com');
  await tld.getByRole('textbox', { name: 'Registration per year (without VAT)' }).fill('9.90');
  await tld.getByRole('textbox', { name: 'Renewal per year (without VAT)' }).fill('10.90');
  // The transfer price was left empty: named on its own field before anything is sent.
  const transfer = tld.getByRole('textbox', { name: 'Transfer (without VAT)' });
  await tld.getByRole('button', { name: 'Add domain ending' }).click();
  await expect(transfer).toHaveAttribute('aria-invalid', 'true');
  await transfer.fill('9.90');
  await tld.getByRole('button', { name: 'Add domain ending' }).click();
  await expect(ending).toHaveAttribute('aria-invalid', 'true');
  await expect(tld).toContainText('This domain ending already has prices.');
  await reviewScreen(page, testInfo, 'catalogue-tld-dialog-errors', DIALOG);
  const ownEnding = `e${uniqueToken(2)}`;
  await ending.fill(ownEnding);
  await tld.getByRole('button', { name: 'Add domain ending' }).click();
  await expect(tld).toBeHidden();
  await expect(tlds.getByTestId('tld-row').filter({ hasText: `.${ownEnding}` })).toContainText('€10.89 incl. VAT');

  // ---- delete the plan, after confirming ----
  await agency.getByRole('button', { name: `Delete ${title}` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete plan ${title}?` });
  await reviewScreen(page, testInfo, 'catalogue-delete-plan', DIALOG);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  await expect(agency).toHaveCount(0);
  await expect(plans.getByTestId('plan-row')).toHaveCount(3);
});

test('a customer may not open the catalogue administration', async ({ page, accounts, berth }, testInfo) => {
  const admin = await superAdmin(accounts, berth.admin);
  const partner = await partnerTenant(admin, berth.baseURL);
  const customer = await tenantCustomer(admin, partner.tenantId);
  await signInAt(page.context(), partner.origin, customer);
  await page.goto(`${partner.origin}/system/partner/catalogue`);
  await expect(page.getByTestId('not-allowed')).toContainText('Only the administrators of this hosting can change its prices.');
  await expect(page.getByRole('heading', { level: 1, name: 'Prices & catalogue' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Shop settings' })).toHaveCount(0);
  await reviewScreen(page, testInfo, 'catalogue-not-allowed', SHELL_PAGE);
});
