import type { Locator, Page } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { uniqueToken } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';
import { signIn } from '../support/shell-session.ts';

// /system/tenants (super admins): the list, /system/tenants/new and /system/tenants/{id}
// (settings with field errors, logos through the logo endpoints, host admins). A host admin gets
// a "not available" page. The super admin is the worker's first admin; other users and tenants
// are made through the API. No test touches tenant 1, whose look other specs check.

/** Inner pages: axe checks the page, the shell specs the frame. */
const MAIN = { include: 'main' };

/** A small logo drawn as SVG (the server turns it into a PNG). */
const LOGO_SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="60" viewBox="0 0 240 60">' +
    '<rect width="240" height="60" rx="10" fill="#1d4fb8"/><circle cx="30" cy="30" r="18" fill="#fff"/>' +
    '<rect x="60" y="22" width="150" height="16" rx="8" fill="#b3d0fd"/></svg>',
);

async function openAs(page: Page, baseURL: string, user: { email: string; password: string }, path: string): Promise<void> {
  await signIn(page.context(), baseURL, user.email, user.password);
  await page.goto(path);
  await expect(page.getByTestId('shell-user-name')).toBeAttached();
}

const hostInput = (page: Page, n: number) => page.getByRole('textbox', { name: `Host name ${n}`, exact: true });
const logoCard = (page: Page, kind: 'admin_logo' | 'admin_logo_footer') => page.getByTestId(`logo-${kind}`);

/** The image has been fetched and decoded (not just an <img> with a broken source). */
async function expectLoaded(image: Locator): Promise<void> {
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBeGreaterThan(0);
}

test('a super admin creates a tenant, edits it, uploads and removes a logo, assigns and removes a host admin', async ({
  page,
  accounts,
  berth,
  baseURL,
}, testInfo) => {
  // Four screens of one tenant with uploads, on a shared machine.
  test.slow();
  const token = uniqueToken();
  const title = `Harbor ${token}`;
  const other = await accounts.tenant();
  await openAs(page, baseURL ?? '', berth.admin, '/system/tenants');

  // ---- the list ----
  await expect(page.getByRole('heading', { level: 1, name: 'Tenants' })).toBeVisible();
  await expect(page.getByTestId(`tenant-row-${other.id}`)).toContainText(other.title);
  await expect(page.getByTestId(`tenant-row-${other.id}`)).toContainText(other.host);
  await expect(page.getByTestId(`tenant-row-${other.id}`)).toContainText('Berth shop');
  await reviewScreen(page, testInfo, 'tenants-list', MAIN);

  // ---- create: a bad host name is refused on its field ----
  await page.getByRole('link', { name: 'New tenant' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New tenant' })).toBeVisible();
  await reviewScreen(page, testInfo, 'tenant-new', MAIN);
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill(title);
  await hostInput(page, 1).fill('bad host!');
  await page.getByRole('button', { name: 'Create tenant' }).click();
  await expect(hostInput(page, 1)).toHaveAttribute('aria-invalid', 'true');
  await expect(hostInput(page, 1)).toHaveAccessibleDescription(/This value is not valid\./);
  await reviewScreen(page, testInfo, 'tenant-new-errors', MAIN);

  // A host name of another tenant: the server's answer goes under the host names.
  await hostInput(page, 1).fill(other.host);
  await page.getByRole('button', { name: 'Create tenant' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `This host name belongs to another tenant: ${other.host}` })).toBeVisible();

  await hostInput(page, 1).fill(`panel-${token}.test`);
  await page.getByRole('button', { name: 'Add a host name' }).click();
  await hostInput(page, 2).fill(`WWW-${token}.test`);
  await page.getByRole('button', { name: 'Add a name server' }).click();
  await page.getByRole('textbox', { name: 'Name server 1', exact: true }).fill(`ns1.${token}.test`);
  // A secondary name server: an address (with a port), nothing a daemon's configuration could take as more.
  await page.getByRole('button', { name: 'Add a secondary server' }).click();
  const secondary = page.getByRole('textbox', { name: 'Secondary server 1', exact: true });
  await secondary.fill('ns2.example;allow-axfr-ips=0.0.0.0/0');
  // The hosting server's address: checked on its own field before anything is sent.
  const ipv4 = page.getByRole('textbox', { name: 'IPv4 address' });
  await ipv4.fill('203.0.113.300');
  await page.getByRole('button', { name: 'Create tenant' }).click();
  await expect(ipv4).toHaveAttribute('aria-invalid', 'true');
  await expect(ipv4).toHaveAccessibleDescription(/Enter an IPv4 address, for example 203\.0\.113\.10\./);
  await expect(secondary).toHaveAttribute('aria-invalid', 'true');
  await expect(secondary).toHaveAccessibleDescription(/Enter an IP address, with a port if it is not 53/);
  await reviewScreen(page, testInfo, 'tenant-new-secondary-error', MAIN);
  await ipv4.fill('203.0.113.10');
  await secondary.fill('192.0.2.53:5300');
  await page.getByLabel('Default language').selectOption('de');
  await page.getByRole('button', { name: 'Create tenant' }).click();

  await expect(page).toHaveURL(/\/system\/tenants\/\d+$/);
  const id = Number(/\/system\/tenants\/(\d+)$/.exec(new URL(page.url()).pathname)?.[1]);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByText(`The tenant ${title} has been saved.`)).toBeVisible();
  // Stored as the server normalises them: lower case.
  await expect(hostInput(page, 2)).toHaveValue(`www-${token}.test`);
  await expect(page.getByLabel('Default language')).toHaveValue('de');

  // ---- edit: title, an external cart, one host name less ----
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill(`${title} Hosting`);
  await page.getByRole('switch', { name: 'Sell through an external cart' }).check();
  await page.getByRole('button', { name: 'Save changes' }).click();
  const cart = page.getByRole('textbox', { name: 'External cart address' });
  await expect(cart, 'an external cart needs its address').toHaveAttribute('aria-invalid', 'true');
  await cart.fill('https://shop.example.com/cart');
  await page.getByRole('button', { name: 'Remove host name 2' }).click();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `${title} Hosting` })).toBeVisible();
  await expect(page.getByText(`The tenant ${title} Hosting has been saved.`)).toBeVisible();
  const admin = await accounts.signedIn(berth.admin);
  const stored = (await (await admin.get(`/api/system/tenants/${id}`)).json()) as {
    data: {
      hosts: string[];
      name_servers: string[];
      dns_secondaries: string[];
      hosting_ipv4: string | null;
      default_language: string;
      config: { host_purchases: string | null };
    };
  };
  expect(stored.data).toMatchObject({
    hosts: [`panel-${token}.test`],
    name_servers: [`ns1.${token}.test`],
    dns_secondaries: ['192.0.2.53:5300'],
    hosting_ipv4: '203.0.113.10',
    default_language: 'de',
    config: { host_purchases: 'https://shop.example.com/cart' },
  });
  await reviewScreen(page, testInfo, 'tenant-edit', MAIN);

  // ---- logos: a file that is no image, then an SVG with its preview, then removed ----
  const header = logoCard(page, 'admin_logo');
  await expect(header).toContainText('No logo');
  let chooser = page.waitForEvent('filechooser');
  await header.getByRole('button', { name: 'Upload: Header logo' }).click();
  await (await chooser).setFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
  await expect(header.getByRole('alert')).toContainText('This file is not an image we can use');

  chooser = page.waitForEvent('filechooser');
  await header.getByRole('button', { name: 'Upload: Header logo' }).click();
  await (await chooser).setFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: LOGO_SVG });
  const preview = header.getByRole('img', { name: `Header logo of ${title} Hosting` });
  await expectLoaded(preview);
  await expect(header.getByRole('alert')).toHaveCount(0);
  // One message for the upload, saying what was done (not a second "saved").
  await expect(page.getByText(`The logo of ${title} Hosting has been uploaded.`)).toHaveCount(1);
  await expect(logoCard(page, 'admin_logo_footer')).toContainText('No logo');
  await reviewScreen(page, testInfo, 'tenant-logo', MAIN);
  const withLogo = (await (await admin.get(`/api/system/tenants/${id}`)).json()) as { data: { config: { admin_logo: string | null } } };
  expect(withLogo.data.config.admin_logo).toMatch(/^\/api\/tenant\/logo\/admin_logo\?v=\d+$/);

  await header.getByRole('button', { name: 'Remove: Header logo' }).click();
  await expect(preview).toHaveCount(0);
  await expect(header).toContainText('No logo');

  // ---- host admins: a customer of this tenant is made one, then a customer again ----
  const helper = await accounts.customer('tenant-admin', id);
  const admins = page.getByRole('region', { name: 'Host admins' });
  await expect(admins).toContainText('This tenant has no host admin yet.');
  const picker = page.getByRole('textbox', { name: 'Make a customer host admin' });
  await picker.scrollIntoViewIfNeeded();
  await picker.click();
  await picker.pressSequentially(helper.email.slice(0, 12));
  // On a phone the page moves while one types here (the list changes the page's height at its end);
  // the list stays open wherever the field went (it once vanished for good: hideDetached).
  await page.getByRole('option', { name: `${helper.givenName} ${helper.surname} <${helper.email}>` }).click();
  await admins.getByRole('button', { name: 'Make host admin' }).click();
  const list = admins.getByRole('list', { name: `Host admins of ${title} Hosting` });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText(helper.email);
  await expect(list).toContainText(`${helper.givenName} ${helper.surname}`);
  await reviewScreen(page, testInfo, 'tenant-admins', MAIN);

  await list.getByRole('button', { name: `Remove ${helper.givenName} ${helper.surname} as host admin` }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove this host admin?' });
  await expect(dialog).toContainText(helper.email);
  await reviewScreen(page, testInfo, 'tenant-admin-remove', { include: '[role="dialog"]' });
  await dialog.getByRole('button', { name: 'Remove host admin' }).click();
  await expect(dialog).toBeHidden();
  await expect(admins).toContainText('This tenant has no host admin yet.');

  // Back in the list: the renamed tenant with its external cart.
  await page.getByRole('link', { name: 'All tenants' }).click();
  const row = page.getByTestId(`tenant-row-${id}`);
  await expect(row).toContainText(`${title} Hosting`);
  await expect(row).toContainText('External cart');
  await expect(row).toContainText(`panel-${token}.test`);
});

test('a host admin gets no tenants pages', async ({ page, accounts, baseURL }, testInfo) => {
  const hostAdmin = await accounts.hostAdmin();
  await openAs(page, baseURL ?? '', hostAdmin, '/system/tenants');
  await expect(page.getByRole('heading', { level: 1, name: 'Not available' })).toBeVisible();
  await expect(page.getByText('Only super administrators manage tenants.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'New tenant' })).toHaveCount(0);
  await reviewScreen(page, testInfo, 'tenants-not-allowed', MAIN);

  await page.goto('/system/tenants/1');
  await expect(page.getByRole('heading', { level: 1, name: 'Not available' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  // The API agrees.
  expect((await page.request.get('/api/system/tenants')).status()).toBe(403);
  expect((await page.request.get('/api/system/tenants/1')).status()).toBe(403);
});
