import type { Page, TestInfo } from '@playwright/test';
import { blockingAxeViolations } from '../support/accessibility.ts';
import { keepScreenshot } from '../support/screenshots.ts';
import { waitUntilSettled } from '../support/settle.ts';
import { test, expect, openMenu } from '../support/shell-fixtures.ts';
import { isPhone } from '../support/shell-helpers.ts';
import { FLEET_HOST, HARBOR_HOST, seedUsers } from '../support/shell-server.ts';

// The bar: axe finds no serious violations in the shell of a super admin, a host admin
// and a customer; their screenshots are kept in e2e/artifacts/screenshots/.

async function check(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await waitUntilSettled(page);
  await keepScreenshot(page, testInfo, name);
  expect(await blockingAxeViolations(page, testInfo, name), `serious or critical axe violations: ${name}`).toEqual([]);
}

test('super admin', async ({ page, openAs }, testInfo) => {
  await openAs(seedUsers.superAdmin, '/dashboard');
  await expect(page.getByTestId('partner-credit')).toBeVisible();
  await check(page, testInfo, 'shell-super-admin');

  await page.getByTestId('partner-credit').click();
  await expect(page.getByRole('dialog', { name: 'Add partner credit' })).toBeVisible();
  await check(page, testInfo, 'shell-add-credit');
});

test('host admin, on a domain page with the domain selector open', async ({ page, openAs }, testInfo) => {
  await openAs(seedUsers.harborAdmin, '/dashboard', HARBOR_HOST);
  await check(page, testInfo, 'shell-host-admin');

  const nav = await openMenu(page, isPhone(testInfo.project.name));
  await nav.getByTestId('domain-selector').click();
  await page.getByRole('combobox', { name: 'Search domains' }).fill('anchor');
  await page.getByRole('option').first().click();
  await expect(page).toHaveURL((url) => /\/host\/domain\/\d+\/edit$/.test(url.pathname));
  // The URL changes at once, the page only once its lazy chunk is in (a router transition); the
  // phone's drawer closes with that render. Opening it before then would see it shut under us.
  if (isPhone(testInfo.project.name)) await expect(page.locator('nav#shell-navigation')).toHaveCount(0);
  const again = await openMenu(page, isPhone(testInfo.project.name));
  await again.getByRole('link', { name: 'DNS records' }).click();
  await expect(page).toHaveURL((url) => url.pathname.endsWith('/dns'));
  await check(page, testInfo, 'shell-domain-page');

  const menu = await openMenu(page, isPhone(testInfo.project.name));
  await menu.getByTestId('domain-selector').click();
  await expect(page.getByRole('listbox')).toBeVisible();
  await check(page, testInfo, 'shell-domain-selector');
});

test('host admin of a tenant that sells, with 5,000 domains', async ({ page, openAs }, testInfo) => {
  await openAs(seedUsers.fleetAdmin, '/dashboard', FLEET_HOST);
  await page.getByTestId('profile-menu').click();
  await expect(page.getByRole('menu')).toBeVisible();
  await check(page, testInfo, 'shell-selling-host-admin');
});

test('customer', async ({ page, openAs }, testInfo) => {
  await openAs(seedUsers.hana, '/dashboard', HARBOR_HOST);
  await expect(page.getByTestId('cart-count')).toHaveText('3');
  await check(page, testInfo, 'shell-customer');

  await page.getByTestId('profile-menu').click();
  await page.getByRole('menuitem', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  await check(page, testInfo, 'shell-customer-account');
});
