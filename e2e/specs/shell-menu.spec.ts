import path from 'node:path';
import type { Page } from '@playwright/test';
import { screenshotsDir } from '../support/screenshots.ts';
import { waitUntilSettled } from '../support/settle.ts';
import { test, expect, openMenu } from '../support/shell-fixtures.ts';
import { isPhone } from '../support/shell-helpers.ts';
import { HARBOR_HOST, seedUsers } from '../support/shell-server.ts';

// docs/product.md §2 and §4: the left menu, its tree state, the toggle and the phone drawer.

const crumbs = (page: Page) => page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('listitem');

test('active and open items come from the path, on every navigation', async ({ page, openAs }, testInfo) => {
  const phone = isPhone(testInfo.project.name);
  await openAs(seedUsers.superAdmin, '/system/outbox');
  let nav = await openMenu(page, phone);
  await expect(nav.getByTestId('nav-system')).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByTestId('nav-system.outbox')).toHaveAttribute('aria-current', 'page');
  for (const group of ['domains', 'shop', 'partner', 'account']) {
    await expect(nav.getByTestId(`nav-${group}`)).toHaveAttribute('aria-expanded', 'false');
  }
  await expect(crumbs(page)).toHaveText(['Home', 'System', 'Outbox']);
  if (phone) await page.keyboard.press('Escape');

  // A navigation from elsewhere (the profile dropdown) recomputes the tree.
  await page.getByTestId('profile-menu').click();
  await page.getByRole('menuitem', { name: /Two-factor authentication/ }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/account/2fa');
  nav = await openMenu(page, phone);
  await expect(nav.getByTestId('nav-account')).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByTestId('nav-account.2fa')).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByTestId('nav-system')).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByTestId('nav-system.outbox')).toBeHidden();
  await expect(crumbs(page)).toHaveText(['Home', 'Account', 'Two-factor authentication']);
  // The server's badge on the 2FA item, translated.
  await expect(nav.getByTestId('nav-account.2fa')).toContainText('Off');
});

test('a click toggles an item and closes the others outside its ancestry', async ({ page, openAs }, testInfo) => {
  const phone = isPhone(testInfo.project.name);
  await openAs(seedUsers.superAdmin, '/dashboard');
  const nav = await openMenu(page, phone);
  const domains = nav.getByTestId('nav-domains');
  const shop = nav.getByTestId('nav-shop');
  await expect(nav.getByTestId('nav-dashboard')).toHaveAttribute('aria-current', 'page');

  await domains.click();
  await expect(domains).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByTestId('nav-domains.list')).toBeVisible();
  await shop.click();
  await expect(shop).toHaveAttribute('aria-expanded', 'true');
  await expect(domains).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByTestId('nav-domains.list')).toBeHidden();
  await shop.click();
  await expect(shop).toHaveAttribute('aria-expanded', 'false');

  await shop.click();
  await nav.getByTestId('nav-shop.cart').click();
  await expect(page).toHaveURL((url) => url.pathname === '/shop/cart');
  // The URL changes at once, the page only once its lazy chunk is in (a router transition); the
  // phone's drawer closes with that render. Opening it before then would see it shut under us.
  if (phone) await expect(page.locator('nav#shell-navigation')).toHaveCount(0);
  const after = await openMenu(page, phone);
  await expect(after.getByTestId('nav-shop')).toHaveAttribute('aria-expanded', 'true');
  await expect(after.getByTestId('nav-shop.cart')).toHaveAttribute('aria-current', 'page');
  await expect(crumbs(page)).toHaveText(['Home', 'Shop', 'Cart']);

  // The longest route wins: /shop/cart is the cart, not the catalogue (/shop).
  await expect(after.getByTestId('nav-shop.catalogue')).not.toHaveAttribute('aria-current', /.*/);
});

test('home, external links and the logout item', async ({ page, openAs }, testInfo) => {
  const phone = isPhone(testInfo.project.name);
  await openAs(seedUsers.harborAdmin, '/account', HARBOR_HOST);
  let nav = await openMenu(page, phone);
  await nav.getByTestId('nav-home').click();
  await expect(page).toHaveURL((url) => url.pathname === '/dashboard');
  // As above: the drawer closes only once the dashboard has rendered.
  if (phone) await expect(page.locator('nav#shell-navigation')).toHaveCount(0);

  nav = await openMenu(page, phone);
  const docs = nav.getByTestId('nav-api');
  await expect(docs).toHaveAttribute('href', '/api/docs');
  await expect(docs).toHaveAttribute('target', '_blank');
  await expect(docs).toHaveAccessibleName('API documentation (opens in a new tab)');

  await nav.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/login');
  // From the page: Node resolves no *.localhost names.
  expect(await page.evaluate(async () => (await fetch('/api/user')).status)).toBe(401);
});

test('desktop: the toggle hides and shows the menu; a route change shows it again', async ({ page, openAs }, testInfo) => {
  test.skip(isPhone(testInfo.project.name), 'phones have a drawer instead');
  await openAs(seedUsers.superAdmin, '/dashboard');
  const toggle = page.getByTestId('menu-toggle');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(toggle).toHaveAttribute('aria-controls', 'shell-navigation');
  await expect(nav).toBeVisible();

  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).toBeHidden();
  const main = await page.getByRole('main').boundingBox();
  expect(main?.x, "the page takes the menu's room").toBeLessThan(100);

  await toggle.click();
  await expect(nav).toBeVisible();

  await toggle.click();
  await expect(nav).toBeHidden();
  await page.getByTestId('cart-link').click();
  await expect(page).toHaveURL((url) => url.pathname === '/shop/cart');
  await expect(nav).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
});

test('phone: the menu is a drawer opened by the toggle, closed by Escape and by navigating', async ({ page, openAs }, testInfo) => {
  test.skip(!isPhone(testInfo.project.name), 'wide screens show the menu beside the page');
  await openAs(seedUsers.hana, '/dashboard', HARBOR_HOST);
  const toggle = page.getByTestId('menu-toggle');
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).not.toHaveAttribute('aria-controls', /.*/);

  await toggle.click();
  const drawer = page.getByRole('dialog', { name: 'Menu' });
  await expect(drawer).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(drawer.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await waitUntilSettled(page);
  // The viewport only: a full-page shot would cut the fixed drawer off at the first screen.
  await page.screenshot({ path: path.join(screenshotsDir, `${testInfo.project.name}-shell-drawer.png`), animations: 'disabled' });

  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(toggle).toBeFocused();

  await toggle.click();
  await drawer.getByTestId('nav-account').click();
  await drawer.getByTestId('nav-account.profile').click();
  await expect(page).toHaveURL((url) => url.pathname === '/account');
  await expect(drawer).toBeHidden();
});
