import { request, type Page } from '@playwright/test';
import { test, expect, openMenu } from '../support/shell-fixtures.ts';
import { isPhone } from '../support/shell-helpers.ts';
import { FLEET_CART_URL, FLEET_HOST, HARBOR_HOST, SEED_PASSWORD, seedUsers } from '../support/shell-server.ts';

// docs/product.md §2 and §6: what the header shows for each role and tenant.

const breadcrumb = (page: Page) => page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('listitem');

/** The profile dropdown's links, opened and closed again. */
async function profileLinks(page: Page): Promise<(string | null)[]> {
  await page.getByTestId('profile-menu').click();
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  const links = await menu.getByRole('menuitem').evaluateAll((items) => items.map((item) => item.getAttribute('href')));
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  return links;
}

async function expectCommonHeader(page: Page) {
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: /– home$/ })).toHaveAttribute('href', '/dashboard');
  await expect(header.getByTestId('menu-toggle')).toBeVisible();
  await expect(header.getByTestId('language-menu')).toBeVisible();
  await expect(header.getByRole('button', { name: 'Log out' })).toBeVisible();
  await expect(header.getByRole('navigation', { name: 'Breadcrumb' })).toBeVisible();
}

test('super admin: partner credit opens the add-credit dialog, cart and profile links', async ({ page, openAs }, testInfo) => {
  const origin = await openAs(seedUsers.superAdmin);
  await expectCommonHeader(page);

  await expect(page.getByTestId('cart-link')).toHaveAttribute('href', '/shop/cart');
  await expect(page.getByTestId('cart-link')).toHaveAccessibleName('Cart, empty');
  await expect(page.getByTestId('cart-count')).toHaveCount(0);
  expect(await profileLinks(page)).toEqual(['/account', '/account/2fa', '/account/payment-methods', '/password']);

  const credit = page.getByTestId('partner-credit');
  await expect(credit).toHaveAccessibleName('Partner credit €0.00: add credit');
  await credit.click();
  const dialog = page.getByRole('dialog', { name: 'Add partner credit' });
  await expect(dialog).toBeVisible();
  const amount = dialog.getByRole('textbox', { name: 'Amount' });
  await expect(amount).toBeFocused();
  await amount.fill('5');
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(dialog.getByText('Enter an amount from €10.00 to €10,000.00.')).toBeVisible();
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await amount.fill('10001');
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(dialog.getByText('Enter an amount from €10.00 to €10,000.00.')).toBeVisible();
  // A valid amount: the top-up invoice's bank transfer instructions (shop-credit.spec.ts pays one).
  await amount.fill('250');
  await dialog.getByRole('button', { name: 'Continue to payment' }).click();
  const pay = page.getByRole('dialog', { name: 'Pay for your credit' });
  await expect(pay.getByTestId('transfer-amount')).toHaveText('€250.00');
  await pay.getByRole('button', { name: 'Done' }).click();
  await expect(pay).toBeHidden();

  await page.goto(`${origin}/system/partner/credit`);
  await expect(page.getByRole('heading', { level: 1, name: 'Partner credit' })).toBeVisible();
  await expect(breadcrumb(page)).toHaveText(['Home', 'Partner', 'Partner credit']);
  const nav = await openMenu(page, isPhone(testInfo.project.name));
  await expect(nav.getByTestId('nav-partner')).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByTestId('nav-partner.credit')).toHaveAttribute('aria-current', 'page');
});

test('a non-zero commission links the credit to /system/partner/credit', async ({ page, openAs, seeded }) => {
  // A real balance: the super admin books one for the host admin of a tenant that sells (and takes
  // it back after: the seeded server is the worker's). The page comes with its answers in it
  // (server/src/http/signed-in-page.ts), so the balance must be the server's, not a doctored answer.
  const fleet = await openAs(seedUsers.fleetAdmin, '/account', FLEET_HOST);
  // Asked by the page: Node resolves no *.localhost name.
  const userId = await page.evaluate(
    async () => ((await (await fetch('/api/user')).json()) as { data: { user: { id: number } } }).data.user.id,
  );
  const asSuperAdmin = await request.newContext({ baseURL: seeded.baseURL });
  const adjust = async (amount: number) => {
    const answer = await asSuperAdmin.post('/api/system/credit/adjustments', {
      data: { user_id: userId, amount, description: 'e2e: a commission' },
    });
    expect(answer.status(), await answer.text()).toBe(201);
  };
  expect(
    (await asSuperAdmin.post('/api/login', { data: { email: seedUsers.superAdmin, password: SEED_PASSWORD, remember: false } })).status(),
  ).toBe(200);
  await adjust(12_50);
  try {
    await page.goto(`${fleet}/dashboard`);
    const credit = page.getByTestId('partner-credit');
    await expect(credit).toHaveAccessibleName(/^Partner credit .*12\.50$/);
    await expect(credit).toHaveAttribute('href', '/system/partner/credit');
    await credit.click();
    await expect(page).toHaveURL((url) => url.pathname === '/system/partner/credit');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  } finally {
    await adjust(-12_50);
    await asSuperAdmin.dispose();
  }
});

test('host admin of a tenant without its own shop: no credit, no payment methods or promo', async ({ page, openAs }) => {
  await openAs(seedUsers.harborAdmin, '/dashboard', HARBOR_HOST);
  await expectCommonHeader(page);
  await expect(page.getByRole('banner').getByRole('img', { name: 'Harbor Hosting logo' })).toBeVisible();
  await expect(page.getByTestId('partner-credit')).toHaveCount(0);
  await expect(page.getByTestId('cart-link')).toHaveAttribute('href', '/shop/cart');
  expect(await profileLinks(page)).toEqual(['/account', '/account/2fa', '/password']);
});

test('host admin of a tenant that sells: credit, promo and payment methods, the cart in its own shop', async ({ page, openAs }) => {
  await openAs(seedUsers.fleetAdmin, '/dashboard', FLEET_HOST);
  await expectCommonHeader(page);
  await expect(page.getByTestId('partner-credit')).toBeVisible();
  await expect(page.getByTestId('cart-link')).toHaveAttribute('href', FLEET_CART_URL);
  expect(await profileLinks(page)).toEqual(['/account', '/account/2fa', '/account/payment-methods', '/system/partner/promo', '/password']);
});

test('customer: the cart badge counts the rows; no partner credit', async ({ page, openAs }) => {
  await openAs(seedUsers.hana, '/dashboard', HARBOR_HOST);
  await expectCommonHeader(page);
  await expect(page.getByTestId('cart-count')).toHaveText('3');
  await expect(page.getByTestId('cart-link')).toHaveAccessibleName('Cart, 3 items');
  await expect(page.getByTestId('partner-credit')).toHaveCount(0);
  expect(await profileLinks(page)).toEqual(['/account', '/account/2fa', '/password']);

  await page.getByTestId('cart-link').click();
  await expect(page).toHaveURL((url) => url.pathname === '/shop/cart');
  await expect(breadcrumb(page)).toHaveText(['Home', 'Shop', 'Cart']);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cart');
});

test('the profile dropdown opens the account pages', async ({ page, openAs }) => {
  await openAs(seedUsers.petr, '/dashboard', HARBOR_HOST);
  await page.getByTestId('profile-menu').click();
  await page.getByRole('menuitem', { name: 'Change password' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/password');
  await expect(breadcrumb(page)).toHaveText(['Home', 'Account', 'Password']);
});
