import { readFile } from 'node:fs/promises';
import { domainToASCII } from 'node:url';
import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { uniqueToken, type Customer } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';
import { openMenu } from '../support/shell-fixtures.ts';
import { isPhone } from '../support/shell-helpers.ts';
import { signIn } from '../support/shell-session.ts';
import { countLayoutShifts, holdAnswers, layoutShift, navigateInApp, resetLayoutShift } from '../support/layoutShift.ts';

// /host/domain (search, sort, keyset pages, expiry marks), /host/domain/create (IDN,
// owner and expiry for admins, field errors) and /host/domain/{id}/edit (settings per role,
// delete with the name typed). Users and domains are made through the API by the super admin.

const DAY_MS = 24 * 60 * 60 * 1000;
const editPath = /^\/host\/domain\/(\d+)\/edit$/;

async function openAs(page: Page, baseURL: string, user: Customer, path: string): Promise<void> {
  await signIn(page.context(), baseURL, user.email, user.password);
  await page.goto(path);
  await expect(page.getByTestId('shell-user-name')).toBeAttached();
}

const domainLinks = (page: Page) => page.getByTestId('domain-row').getByRole('link');
const searchBox = (page: Page) => page.getByRole('searchbox', { name: 'Search domains' });

async function search(page: Page, term: string): Promise<void> {
  await searchBox(page).fill(term);
  await expect(page).toHaveURL((url) => url.searchParams.get('q') === term);
}

/** The shell's domain selector, searched for `term`: the names it offers. */
async function selectorOptions(page: Page, phone: boolean, term: string) {
  const nav = await openMenu(page, phone);
  await nav.getByTestId('domain-selector').click();
  const dialog = page.getByRole('dialog', { name: /^Domain:/ });
  await dialog.getByRole('combobox', { name: 'Search domains' }).fill(term);
  return dialog;
}

async function closeSelector(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: /^Domain:/ })).toBeHidden();
  // On phones the drawer stays open after the selector closes.
  if ((await page.getByTestId('menu-toggle').getAttribute('aria-expanded')) === 'true') await page.keyboard.press('Escape');
}

// A foreign or deleted domain's id answers 404, which the browser logs.
// One pattern (test.use reads a two-element array as a value and its options): 404 for another
// customer's domain, 409 for a proof checked before its TXT record is there.
test.use({ allowedConsoleErrors: [/the server responded with a status of (404|409) /] });

test.describe('as a customer', () => {
  test('sees only their own domains and adds one with a name and notes only; it awaits proof', async ({
    page,
    accounts,
    baseURL,
  }, testInfo) => {
    const [customer, neighbour] = await Promise.all([accounts.customer('domains'), accounts.customer('neighbour')]);
    const [own, foreign] = await Promise.all([accounts.domain(customer), accounts.domain(neighbour)]);
    await openAs(page, baseURL ?? '', customer, '/host/domain');

    await expect(page.getByRole('heading', { level: 1, name: 'Domains' })).toBeVisible();
    await expect(domainLinks(page)).toHaveText([own.name]);
    await expect(page.getByRole('columnheader', { name: 'Owner' })).toHaveCount(0);
    await expect(page.getByText(foreign.name)).toHaveCount(0);
    await expect(domainLinks(page).first()).toHaveAttribute('href', `/host/domain/${own.id}/edit`);
    await reviewScreen(page, testInfo, 'domains-list-customer', { include: 'main' });
    // The export holds the customer's own domains only.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const csv = await readFile((await (await download).path()) ?? '', 'utf8');
    expect(csv.trimEnd().split('\r\n')).toEqual([
      'id,name,name_unicode,owner_email,owner_name,expire_at,expired,created_at',
      expect.stringMatching(new RegExp(`^${own.id},"${own.name.replace(/\./g, '\\.')}",`)),
    ]);

    // A search that matches nothing says so.
    await search(page, `nothing-${uniqueToken()}`);
    await expect(page.getByText('No domain found')).toBeVisible();
    await page.getByRole('button', { name: 'Clear search' }).first().click();
    await expect(domainLinks(page)).toHaveText([own.name]);

    // ---- create: name and notes only ----
    await page.getByRole('link', { name: 'New domain' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Add a domain' })).toBeVisible();
    await expect(page.getByLabel('Owner')).toHaveCount(0);
    await expect(page.getByLabel('Expiry date', { exact: true })).toHaveCount(0);
    await reviewScreen(page, testInfo, 'domain-create-customer', { include: 'main' });

    const name = `shop-${uniqueToken()}.test`;
    await page.getByLabel('Domain name').fill(`Shop-${name.slice('shop-'.length)}`);
    await page.getByLabel('Notes').fill('Registered at the registrar of my choice');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await expect(page).toHaveURL((url) => editPath.test(url.pathname));
    await expect(page.getByText(`The domain ${name} has been added. Add the TXT record shown on its page`)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

    // Back through the breadcrumb, within the app: the list shows the new domain, awaiting proof.
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'All domains' }).click();
    await expect(domainLinks(page)).toHaveText([own.name, name]);
    await expect(page.getByTestId('domain-awaiting-proof')).toHaveCount(1);
    await expect(page.getByTestId('domain-row').filter({ hasText: name }).getByTestId('domain-awaiting-proof')).toHaveText(
      'Awaiting proof',
    );
  });

  test('proves a domain they hold elsewhere with a TXT record; a new name is registered in the shop', async ({
    page,
    accounts,
    baseURL,
    dnsWorld,
  }, testInfo) => {
    const customer = await accounts.customer('proof');
    await openAs(page, baseURL ?? '', customer, '/host/domain/create');
    const name = `own-${uniqueToken()}.test`;
    await page.getByLabel('Domain name').fill(name);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await expect(page).toHaveURL((url) => editPath.test(url.pathname));

    // The record to publish at the DNS provider that serves the name today.
    const proof = page.getByRole('region', { name: 'Prove the domain is yours' });
    await expect(proof.getByTestId('proof-type')).toHaveText('TXT');
    await expect(proof.getByTestId('proof-record')).toHaveText(`_domain-verification.${name}`);
    const value = (await proof.getByTestId('proof-value').textContent()) ?? '';
    expect(value).toMatch(/^domain-verification=[0-9a-f]{32}$/);
    // Held for a week (DOMAIN_PROOF_DAYS), then free for whoever really holds the name.
    const week = new Date(Date.now() + 7 * 86_400_000).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
    await expect(proof.getByTestId('proof-held-until')).toContainText(`The name is held for you until ${week}.`);
    await reviewScreen(page, testInfo, 'domain-proof-customer', { include: 'main' });
    await proof.getByRole('button', { name: 'Check now' }).click();
    await expect(proof.getByRole('alert')).toHaveText(
      `No TXT record _domain-verification.${name} with the value ${value} was found yet. Changes at your DNS provider can take up to an hour to show.`,
    );

    dnsWorld.setTxt(`_domain-verification.${name}`, [value]);
    await proof.getByRole('button', { name: 'Check now' }).click();
    await expect(page.getByText(`The domain ${name} is proven to be yours: its DNS and mail are served now.`)).toBeVisible();
    await expect(proof).toHaveCount(0);
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'All domains' }).click();
    await expect(domainLinks(page)).toHaveText([name]);
    await expect(page.getByTestId('domain-awaiting-proof')).toHaveCount(0);

    // A new name is registered through the shop.
    await page.goto('/host/domain/create');
    await page.getByRole('link', { name: 'Register a domain' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/shop');
    await expect(page.getByRole('heading', { level: 2, name: 'Find a domain' })).toBeVisible();
  });

  test("edits the notes of a domain, not its owner or expiry; another customer's domain is not found", async ({
    page,
    accounts,
    baseURL,
  }, testInfo) => {
    const [customer, neighbour] = await Promise.all([accounts.customer('domains'), accounts.customer('neighbour')]);
    const [own, foreign] = await Promise.all([accounts.domain(customer), accounts.domain(neighbour)]);
    const name = own.name;
    await openAs(page, baseURL ?? '', customer, `/host/domain/${own.id}/edit`);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

    await expect(page.getByLabel('Owner')).toHaveCount(0);
    await expect(page.getByLabel('Expiry date', { exact: true })).toHaveCount(0);
    await expect(page.getByTestId('domain-facts')).toContainText('No expiry');
    await page.getByLabel('Notes').fill('Moved from the old host in November');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').filter({ hasText: `The domain ${name} has been saved.` })).toBeVisible();
    await reviewScreen(page, testInfo, 'domain-edit-customer', { include: 'main' });
    await page.reload();
    await expect(page.getByLabel('Notes')).toHaveValue('Moved from the old host in November');

    // ---- someone else's domain reads as missing ----
    await page.goto(`/host/domain/${foreign.id}/edit`);
    await expect(page.getByRole('heading', { level: 1, name: 'Domain not found' })).toBeVisible();
    await expect(page.getByText(foreign.name)).toHaveCount(0);
    await reviewScreen(page, testInfo, 'domain-not-found', { include: 'main' });
    await page.getByRole('link', { name: 'Back to the domains' }).click();
    await expect(domainLinks(page)).toHaveText([own.name]);
  });
});

/** Picks `customer` in the owner picker (a search by e-mail). */
async function pickOwner(page: Page, customer: Customer): Promise<void> {
  const picker = page.getByRole('textbox', { name: 'Owner' });
  await picker.click();
  await picker.fill(customer.email);
  await page.getByRole('option', { name: new RegExp(escapeRegExp(customer.email)) }).click();
  await expect(picker).toHaveValue(new RegExp(escapeRegExp(customer.email)));
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test.describe('as a host admin', () => {
  test("sees the customers' domains with owners and expiry marks; searches and sorts by expiry", async ({
    page,
    accounts,
    baseURL,
  }, testInfo) => {
    const admin = await accounts.hostAdmin();
    const owner = await accounts.customer('owner');
    const token = uniqueToken();
    // Three domains of one customer: one expiring late, one expired, one expiring in 10 days.
    const [later, expired, soon] = await Promise.all(
      ['a', 'b', 'c'].map((suffix) => accounts.domain(owner, `sort-${token}-${suffix}.test`)),
    );
    if (!later || !expired || !soon) throw new Error('three domains expected');
    const api = await accounts.signedIn(admin);
    const expiries = [
      [later.id, Date.now() + 200 * DAY_MS],
      [expired.id, Date.now() - 5 * DAY_MS],
      [soon.id, Date.now() + 10 * DAY_MS - 60 * 60 * 1000],
    ] as const;
    for (const [id, at] of expiries) {
      const answer = await api.patch(`/api/host/domain/${id}`, { data: { expire_at: new Date(at).toISOString() } });
      expect(answer.status(), await answer.text()).toBe(200);
    }

    await openAs(page, baseURL ?? '', admin, '/host/domain');
    await expect(page.getByRole('columnheader', { name: 'Owner' })).toBeAttached();
    await search(page, `sort-${token}`);
    await expect(domainLinks(page)).toHaveText([later.name, expired.name, soon.name]);
    const expiredRow = page.getByTestId('domain-row').filter({ hasText: expired.name });
    await expect(expiredRow.getByTestId('domain-expired')).toHaveText('Expired');
    await expect(page.getByTestId('domain-row').filter({ hasText: soon.name }).getByTestId('domain-expires-soon')).toHaveText(
      'Expires in 10 days',
    );
    await expect(page.getByTestId('domain-row').filter({ hasText: later.name }).getByTestId('domain-expires-soon')).toHaveCount(0);
    await expect(expiredRow).toContainText(owner.email);

    await page.getByLabel('Sort by').selectOption('expire_at');
    await expect(page).toHaveURL((url) => url.searchParams.get('sort') === 'expire_at');
    await expect(domainLinks(page)).toHaveText([expired.name, soon.name, later.name]);
    await page.getByLabel('Sort by').selectOption('-expire_at');
    await expect(domainLinks(page)).toHaveText([later.name, soon.name, expired.name]);
    await reviewScreen(page, testInfo, 'domains-list-admin', { include: 'main' });
    // The URL keeps the search and sort.
    await page.reload();
    await expect(searchBox(page)).toHaveValue(`sort-${token}`);
    await expect(domainLinks(page)).toHaveText([later.name, soon.name, expired.name]);
  });

  test('adds an IDN domain for a customer and is told about a duplicate on the name field', async ({
    page,
    accounts,
    baseURL,
  }, testInfo) => {
    const [admin, owner] = await Promise.all([accounts.hostAdmin(), accounts.customer('owner')]);
    const idn = `bücher-${uniqueToken()}.test`;
    const ascii = domainToASCII(idn);

    await openAs(page, baseURL ?? '', admin, '/host/domain');
    await page.getByRole('link', { name: 'New domain' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Add a domain' })).toBeVisible();
    await page.getByLabel('Domain name').fill(idn);
    await expect(page.getByText(`Stored in DNS spelling as ${ascii}.`)).toBeVisible();
    await pickOwner(page, owner);
    await page.getByLabel('Expiry date', { exact: true }).fill('2030-01-15');
    await page.getByLabel('Notes').fill('Ordered by phone');
    await reviewScreen(page, testInfo, 'domain-create-admin', { include: 'main' });
    await page.getByRole('button', { name: 'Add domain' }).click();

    await expect(page).toHaveURL((url) => editPath.test(url.pathname));
    await expect(page.getByText(`The domain ${idn} has been added.`)).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: idn })).toBeVisible();
    const facts = page.getByTestId('domain-facts');
    await expect(facts).toContainText(ascii);
    await expect(facts).toContainText(owner.email);
    await expect(facts).toContainText('Jan 15, 2030');
    await reviewScreen(page, testInfo, 'domain-edit-admin', { include: 'main' });

    // The same name again, in other letters: the server's error under the field.
    await page.goto('/host/domain/create');
    await page.getByLabel('Domain name').fill(idn.toUpperCase());
    await page.getByRole('button', { name: 'Add domain' }).click();
    await expect(page.getByLabel('Domain name')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('This domain already exists in the panel.')).toBeVisible();
    await expect(page).toHaveURL((url) => url.pathname === '/host/domain/create');
    await reviewScreen(page, testInfo, 'domain-create-duplicate', { include: 'main' });
  });

  test('deletes a domain once its name is typed: it leaves the list and the selector', async ({ page, accounts, baseURL }, testInfo) => {
    const phone = isPhone(testInfo.project.name);
    const [admin, owner] = await Promise.all([accounts.hostAdmin(), accounts.customer('owner')]);
    const idn = `löschen-${uniqueToken()}.test`;
    const ascii = domainToASCII(idn);
    const { id } = await accounts.domain(owner, idn);

    await openAs(page, baseURL ?? '', admin, `/host/domain/${id}/edit`);
    await expect(page.getByRole('heading', { level: 1, name: idn })).toBeVisible();
    await expect((await selectorOptions(page, phone, idn)).getByRole('option', { name: new RegExp(idn) })).toHaveCount(1);
    await closeSelector(page);

    await page.getByRole('button', { name: 'Delete domain' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${idn}?` });
    await expect(dialog).toBeVisible();
    const confirm = dialog.getByRole('button', { name: 'Delete domain' });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(`Type ${idn} to confirm`).fill(`${idn}x`);
    await expect(confirm).toBeDisabled();
    await reviewScreen(page, testInfo, 'domain-delete-dialog');
    // Either spelling confirms.
    await dialog.getByLabel(`Type ${idn} to confirm`).fill(ascii);
    await confirm.click();

    await expect(page).toHaveURL((url) => url.pathname === '/host/domain');
    await expect(page.getByText(`The domain ${idn} and its users and DNS records have been deleted.`)).toBeVisible();
    await search(page, idn);
    await expect(page.getByText('No domain found')).toBeVisible();
    const selector = await selectorOptions(page, phone, idn);
    await expect(selector.getByText('No domain matches your search.')).toBeVisible();
    await closeSelector(page);
    const api = await accounts.signedIn(admin);
    expect((await api.get(`/api/host/domain/${id}`)).status()).toBe(404);
    // Back to its page within the app: nothing cached shows it again.
    await page.goBack();
    await expect(page).toHaveURL((url) => url.pathname === `/host/domain/${id}/edit`);
    await expect(page.getByRole('heading', { level: 1, name: 'Domain not found' })).toBeVisible();
  });

  test('moves a domain to another customer and changes its expiry', async ({ page, accounts, baseURL }) => {
    const [admin, owner, newOwner] = await Promise.all([accounts.hostAdmin(), accounts.customer('owner'), accounts.customer('new-owner')]);
    const domain = await accounts.domain(owner);

    await openAs(page, baseURL ?? '', admin, `/host/domain/${domain.id}/edit`);
    await expect(page.getByRole('heading', { level: 1, name: domain.name })).toBeVisible();
    await expect(page.getByTestId('domain-facts')).toContainText(owner.email);
    await expect(page.getByRole('textbox', { name: 'Owner' })).toHaveValue(new RegExp(escapeRegExp(owner.email)));
    await pickOwner(page, newOwner);
    await page.getByLabel('Expiry date', { exact: true }).fill('2031-06-30');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('status').filter({ hasText: `The domain ${domain.name} has been saved.` })).toBeVisible();

    await page.reload();
    await expect(page.getByTestId('domain-facts')).toContainText(newOwner.email);
    await expect(page.getByTestId('domain-facts')).toContainText('Jun 30, 2031');
    // Shown as English writes dates (the panel's language, not the browser's).
    await expect(page.getByLabel('Expiry date', { exact: true })).toHaveValue('06/30/2031');
    const api = await accounts.signedIn(admin);
    const stored = (await (await api.get(`/api/host/domain/${domain.id}`)).json()) as {
      data: { owner: { id: number }; expire_at: string };
    };
    expect(stored.data).toMatchObject({ owner: { id: newOwner.id }, expire_at: '2031-06-30T00:00:00.000Z' });

    // Clearing the date: no expiry.
    await page.getByLabel('Expiry date', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('domain-facts')).toContainText('No expiry');
  });
});

test('the search box keeps its place while the list loads', async ({ page, accounts, baseURL }) => {
  const admin = await accounts.hostAdmin();
  const owner = await accounts.customer('shift');
  await accounts.domain(owner, `shift-${uniqueToken()}.test`);
  await signIn(page.context(), baseURL ?? '', admin.email, admin.password);
  await countLayoutShifts(page);
  // The list a second late, as on a slow network. On a phone the count ("1 domain") sits under
  // the section's title; arriving late it pushed the search box down (0.008 in Lighthouse).
  const list = await holdAnswers(page, /\/api\/host\/domain\?/, 1_000);
  await page.goto('/account');
  await navigateInApp(page, '/host/domain');
  await expect(page.getByTestId('domain-skeleton')).toBeVisible();
  await resetLayoutShift(page);
  await expect(page.getByTestId('domain-count')).toBeVisible();
  await expect(page.getByTestId('domain-row').first()).toBeVisible();
  expect(list.held).toBeGreaterThan(0);
  expect(await layoutShift(page)).toBeLessThan(0.005);
});

test('the list pages through keyset cursors: 50 at a time, then "Load more"', async ({ page, accounts, baseURL }, testInfo) => {
  const admin = await accounts.hostAdmin();
  const owner = await accounts.customer('many');
  const token = uniqueToken();
  const names = Array.from({ length: 53 }, (_, i) => `page-${token}-${String(i).padStart(2, '0')}.test`);
  for (let start = 0; start < names.length; start += 10) {
    await Promise.all(names.slice(start, start + 10).map((name) => accounts.domain(owner, name)));
  }
  await openAs(page, baseURL ?? '', admin, `/host/domain?q=page-${token}`);
  await expect(searchBox(page)).toHaveValue(`page-${token}`);
  await expect(domainLinks(page)).toHaveCount(50);
  await expect(page.getByTestId('domain-count')).toHaveText('First 50 domains');
  await expect(domainLinks(page).last()).toHaveText(names[49] ?? '');
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(domainLinks(page)).toHaveCount(53);
  await expect(domainLinks(page)).toHaveText(names);
  await expect(page.getByTestId('domain-count')).toHaveText('53 domains');
  await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);
  await reviewScreen(page, testInfo, 'domains-list-paged', { include: 'main' });

  // Name descending starts over from the other end.
  await page.getByLabel('Sort by').selectOption('-name');
  await expect(domainLinks(page).first()).toHaveText(names[52] ?? '');
  await expect(domainLinks(page)).toHaveCount(50);
});
