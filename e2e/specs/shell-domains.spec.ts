import type { Locator, Page } from '@playwright/test';
import { DOMAIN_DROPDOWN_ROW_PX } from '@berth/contracts';
import { test, expect, openMenu } from '../support/shell-fixtures.ts';
import { isPhone } from '../support/shell-helpers.ts';
import { FLEET_HOST, HARBOR_HOST, seedUsers } from '../support/shell-server.ts';

// docs/product.md §2, §6 and §9: the domain selector lists only live domains, is searchable, is a
// virtual list (37 px rows) above 100 options, and picking a domain opens it with its own menu.

const MAX_ROWS = 60;

interface Selector {
  trigger: Locator;
  dialog: Locator;
  search: Locator;
  listbox: Locator;
  options: Locator;
  count: Locator;
}

async function openSelector(page: Page, phone: boolean): Promise<Selector> {
  const nav = await openMenu(page, phone);
  const trigger = nav.getByTestId('domain-selector');
  await trigger.click();
  // The dialog is named by its trigger ("Domain: …").
  const dialog = page.getByRole('dialog', { name: /^Domain:/ });
  await expect(dialog).toBeVisible();
  const search = dialog.getByRole('combobox', { name: 'Search domains' });
  await expect(search).toBeFocused();
  const listbox = dialog.getByRole('listbox', { name: 'Domains' });
  return { trigger, dialog, search, listbox, options: listbox.getByRole('option'), count: dialog.getByTestId('domain-count') };
}

async function scrollListTo(listbox: Locator, where: 'middle' | 'end'): Promise<void> {
  await listbox.evaluate((element, to) => {
    element.scrollTop = to === 'end' ? element.scrollHeight : element.scrollHeight / 2;
  }, where);
}

const breadcrumb = (page: Page) => page.getByRole('navigation', { name: 'Breadcrumb' });

test('150 live domains: virtual, searchable, expired ones left out; picking opens the domain and its menu', async ({
  page,
  openAs,
}, testInfo) => {
  const phone = isPhone(testInfo.project.name);
  await openAs(seedUsers.harborAdmin, '/dashboard', HARBOR_HOST);
  const selector = await openSelector(page, phone);

  await expect(selector.count).toHaveText('150 domains');
  await expect(selector.listbox).toHaveAttribute('data-virtual', 'true');
  await expect(selector.options.first()).toHaveAttribute('aria-setsize', '150');
  const rows = await selector.options.count();
  expect(rows, 'a virtual list renders only the rows in view').toBeLessThan(MAX_ROWS);
  expect(rows).toBeGreaterThan(5);
  const box = await selector.options.first().boundingBox();
  expect(box?.height).toBe(DOMAIN_DROPDOWN_ROW_PX);

  await scrollListTo(selector.listbox, 'end');
  await expect(selector.listbox.locator('[aria-posinset="150"]')).toBeVisible();
  expect(await selector.options.count()).toBeLessThan(MAX_ROWS);

  // The demo's first 20 domains have expired (harbor-studio.com is the first).
  await selector.search.fill('harbor-studio.com');
  await expect(selector.dialog.getByText('No domain matches your search.')).toBeVisible();
  await expect(selector.listbox).toHaveCount(0);

  await selector.search.fill('quay-');
  await expect(selector.count).toHaveText('20 matches');
  await expect(selector.listbox).toHaveAttribute('data-virtual', 'false');
  await expect(selector.options).toHaveCount(20);

  await selector.search.fill('pier-shop');
  await expect(selector.options).toHaveCount(1);
  await selector.options.first().click();
  await expect(selector.dialog).toBeHidden();

  await expect(page).toHaveURL((url) => /^\/host\/domain\/\d+\/edit$/.test(url.pathname));
  const id = /\/host\/domain\/(\d+)\//.exec(new URL(page.url()).pathname)?.[1] ?? '';
  const crumbs = breadcrumb(page).getByRole('listitem');
  await expect(crumbs).toHaveText(['Home', 'Domains', 'All domains', 'pier-shop.io']);
  await expect(crumbs.last().locator('[aria-current="page"]')).toHaveText('pier-shop.io');

  const nav = await openMenu(page, phone);
  await expect(nav.getByTestId('domain-selector')).toHaveAccessibleName('Domain: pier-shop.io');
  const domainMenu = nav.getByRole('list', { name: 'Domain pages' });
  await expect(domainMenu.getByRole('link')).toHaveText(['Overview', 'Mailbox & FTP users', 'Forwarders', 'DNS records', 'Renewal']);
  await expect(domainMenu.getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');

  await domainMenu.getByRole('link', { name: 'DNS records' }).click();
  await expect(page).toHaveURL((url) => url.pathname === `/host/domain/${id}/dns`);
  await expect(crumbs).toHaveText(['Home', 'Domains', 'All domains', 'pier-shop.io', 'DNS records']);
  await expect(breadcrumb(page).getByRole('link', { name: 'pier-shop.io' })).toHaveAttribute('href', `/host/domain/${id}/edit`);
  await expect(crumbs.last().locator('[aria-current="page"]')).toHaveText('DNS records');
  const after = await openMenu(page, phone);
  await expect(after.getByRole('list', { name: 'Domain pages' }).getByRole('link', { name: 'DNS records' })).toHaveAttribute(
    'aria-current',
    'page',
  );
});

test('the selector works with the keyboard alone', async ({ page, openAs }, testInfo) => {
  const phone = isPhone(testInfo.project.name);
  await openAs(seedUsers.harborAdmin, '/dashboard', HARBOR_HOST);
  const nav = await openMenu(page, phone);
  await nav.getByTestId('domain-selector').focus();
  await page.keyboard.press('Enter');
  const search = page.getByRole('combobox', { name: 'Search domains' });
  await expect(search).toBeFocused();
  await page.keyboard.type('quay-1');
  const options = page.getByRole('listbox', { name: 'Domains' }).getByRole('option');
  await expect(options).toHaveCount(10);
  await expect(search).toHaveAttribute('aria-activedescendant', (await options.first().getAttribute('id')) ?? '');
  await page.keyboard.press('ArrowDown');
  await expect(search).toHaveAttribute('aria-activedescendant', (await options.nth(1).getAttribute('id')) ?? '');
  await expect(options.nth(1)).toHaveText(/quay-11\.net/);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL((url) => /^\/host\/domain\/\d+\/edit$/.test(url.pathname));
  await expect(breadcrumb(page).getByRole('listitem').last()).toHaveText('quay-11.net');

  // Escape closes without picking and gives the focus back.
  const again = await openMenu(page, phone);
  await again.getByTestId('domain-selector').click();
  await expect(search).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: /^Domain:/ })).toBeHidden();
  await expect(again.getByTestId('domain-selector')).toBeFocused();
});

test('5,000 live domains: fewer than 60 option rows in the DOM wherever the list is scrolled', async ({ page, openAs }, testInfo) => {
  const phone = isPhone(testInfo.project.name);
  await openAs(seedUsers.captain, '/dashboard', FLEET_HOST);
  const selector = await openSelector(page, phone);

  await expect(selector.count).toHaveText('5000 domains', { timeout: 15_000 });
  await expect(selector.options.first()).toHaveAttribute('aria-setsize', '5000');
  await expect(selector.options.first()).toHaveText(/vessel-0001\.fleet-example\.com/);
  expect(await selector.options.count()).toBeLessThan(MAX_ROWS);

  await scrollListTo(selector.listbox, 'middle');
  await expect(selector.options.filter({ hasText: 'vessel-2500.' })).toBeVisible();
  expect(await selector.options.count()).toBeLessThan(MAX_ROWS);

  await scrollListTo(selector.listbox, 'end');
  await expect(selector.listbox.locator('[aria-posinset="5000"]')).toHaveText(/vessel-5000\.fleet-example\.com/);
  expect(await selector.options.count()).toBeLessThan(MAX_ROWS);

  // Page Down moves the active option a page at a time and keeps it in view.
  await selector.search.fill('vessel-4');
  await expect(selector.count).toHaveText('1000 matches');
  for (let i = 0; i < 5; i++) await page.keyboard.press('PageDown');
  const active = selector.listbox.locator('[data-active]');
  await expect(active).toHaveAttribute('aria-posinset', '41');
  await expect(active).toBeInViewport();
  expect(await selector.options.count()).toBeLessThan(MAX_ROWS);

  await selector.search.fill('vessel-4321');
  await expect(selector.options).toHaveCount(1);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL((url) => /^\/host\/domain\/\d+\/edit$/.test(url.pathname));
  await expect(breadcrumb(page).getByRole('listitem').last()).toHaveText('vessel-4321.fleet-example.com');
});

test("an expired domain's pages name it in the breadcrumb, not by its number", async ({ page, openAs }) => {
  const origin = await openAs(seedUsers.harborAdmin, '/dashboard', HARBOR_HOST);
  // harbor-studio.com is the demo's first expired domain: left out of the selector, yet renewable.
  const id = await page.evaluate(async () => {
    const answer = (await (await fetch('/api/host/domain?q=harbor-studio.com')).json()) as { data: { id: number; name: string }[] };
    return answer.data.find((domain) => domain.name === 'harbor-studio.com')?.id;
  });
  expect(id).toBeGreaterThan(0);
  await page.goto(`${origin}/host/domain/${id}/renew`);
  const crumbs = breadcrumb(page).getByRole('listitem');
  await expect(crumbs.filter({ hasText: 'harbor-studio.com' })).toHaveCount(1);
  await expect(breadcrumb(page)).not.toContainText('#');
});
