import { test, expect } from '../support/fixtures.ts';
import { openMenu } from '../support/shell-fixtures.ts';
import { isPhone } from '../support/shell-helpers.ts';
import { reviewScreen } from '../support/review.ts';
import { giveCredit, signInPage, superAdmin } from '../support/shop.ts';

// Issue 14 "hosting plans are bought but never seen": a plan bought in the shop is listed on
// /account/services ("My hosting" in the Shop menu) with its state, period and price.

const SHELL_PAGE = { include: 'main' };

test('a customer buys a hosting plan and finds it under My hosting', async ({ page, accounts, berth }, testInfo) => {
  test.slow();
  const admin = await superAdmin(accounts, berth.admin);
  const customer = await accounts.customer('hosting');
  await giveCredit(admin, customer.id, 200_00);
  await signInPage(page, customer);

  await page.goto('/account/services');
  await expect(page.getByRole('heading', { level: 1, name: 'My hosting' })).toBeVisible();
  await expect(page.getByText('No hosting plan yet')).toBeVisible();
  await reviewScreen(page, testInfo, 'services-empty', SHELL_PAGE);

  await page.getByRole('link', { name: 'Buy or extend a plan' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/shop');
  await page.getByRole('article', { name: 'Starter' }).getByRole('button', { name: 'Add to cart' }).click();
  await page.getByTestId('cart-link').click();
  await page.getByRole('radio', { name: /Credit balance/ }).click();
  await page.getByRole('button', { name: /Place order/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your order is complete' })).toBeVisible();

  // From the menu, as a customer finds it.
  const nav = await openMenu(page, isPhone(testInfo.project.name));
  if (!(await nav.getByTestId('nav-shop.services').isVisible())) await nav.getByTestId('nav-shop').click();
  await nav.getByTestId('nav-shop.services').click();
  await expect(page).toHaveURL((url) => url.pathname === '/account/services');
  const row = page.getByTestId('service-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Starter');
  await expect(row).toContainText('Active');
  await expect(row.getByTestId('plan-limits')).toHaveText('1 domain · 5 mailboxes · 10 GB disk space');
  // What the plan includes against what is in use: the limits the panel enforces.
  const usage = page.getByTestId('plan-usage');
  await expect(usage.getByTestId('usage-domains')).toHaveText('0 of 1');
  await expect(usage.getByTestId('usage-mailboxes')).toHaveText('0 of 5');
  await expect(usage.getByTestId('usage-disk')).toHaveText('0 MB of 10240 MB');
  const year = new Date().getUTCFullYear() + 1;
  await expect(row).toContainText(new RegExp(`Paid until .*${year}`));
  await expect(row).toContainText(/€[\d.,]+ a month/);
  await reviewScreen(page, testInfo, 'services-active', SHELL_PAGE);

  // Automatic renewal: on from the purchase, switched off and on again by the owner.
  const autoRenew = row.getByRole('switch', { name: 'Renew Hosting Starter automatically' });
  await expect(autoRenew).toBeChecked();
  await expect(row).toContainText('Paid from your credit before it ends');
  await autoRenew.click({ force: true });
  await expect(page.getByRole('status').filter({ hasText: /Hosting Starter ends on .* unless you renew it\./ })).toBeVisible();
  await expect(autoRenew).not.toBeChecked();
  await expect(row).not.toContainText('Paid from your credit before it ends');
  await autoRenew.click({ force: true });
  await expect(page.getByRole('status').filter({ hasText: /Hosting Starter renews automatically before / })).toBeVisible();
  await expect(autoRenew).toBeChecked();

  // Renewed by hand: the same plan, a year longer, through the cart.
  await row.getByRole('button', { name: 'Renew Hosting Starter for a year' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/shop/cart');
  await expect(page.getByText('Hosting Starter: renewal')).toBeVisible();
  await page.getByRole('radio', { name: /Credit balance/ }).click();
  await page.getByRole('button', { name: /Place order/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your order is complete' })).toBeVisible();
  await page.goto('/account/services');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(new RegExp(`Paid until .*${year + 1}`));
  await reviewScreen(page, testInfo, 'services-renewed', SHELL_PAGE);

  // Upgraded in one step: Starter ends now, its unused days go to the credit, which pays Business.
  await row.getByRole('button', { name: 'Change plan of Hosting Starter' }).click();
  const change = page.getByRole('dialog', { name: 'Change Hosting Starter' });
  // The other plans the shop sells, not the one the customer has.
  await expect(change.getByRole('radio', { name: /Pro/ })).toBeVisible();
  await expect(change.getByRole('radio', { name: /Starter/ })).toHaveCount(0);
  await change.getByRole('radio', { name: /Business/ }).click();
  await reviewScreen(page, testInfo, 'services-change', { include: '[role="dialog"]' });
  await change.getByRole('button', { name: 'Change plan' }).click();
  await expect(change).toBeHidden();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: /You now have Hosting Business\. The unused time of Hosting Starter \(€[\d.,]+\) went to your credit/ }),
  ).toBeVisible();
  const rows = page.getByTestId('service-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Starter' })).toContainText('Expired');
  const business = rows.filter({ hasText: 'Business' });
  await expect(business).toContainText('Active');
  await expect(page.getByTestId('usage-mailboxes')).not.toHaveText('0 of 5');
  await reviewScreen(page, testInfo, 'services-changed', SHELL_PAGE);

  // Cancelled: the plan ends now and the unused days go to the customer's credit.
  await business.getByRole('button', { name: 'Cancel Hosting Business' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel Hosting Business?' });
  await expect(dialog).toContainText('The unused days of what you paid go to your credit');
  await reviewScreen(page, testInfo, 'services-cancel', { include: '[role="dialog"]' });
  await dialog.getByRole('button', { name: 'Cancel the plan' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByRole('status').filter({ hasText: /Hosting Business is cancelled; €[\d.,]+ for the unused time is in your credit\./ }),
  ).toBeVisible();
  await expect(business).toContainText('Expired');
  await expect(page.getByRole('button', { name: /^Cancel Hosting/ })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'What your plans include' })).toContainText('Your plans have run out');
  await expect(page.getByTestId('usage-domains')).toHaveText('0 of 0');
});
