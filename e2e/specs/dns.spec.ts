import { readFile } from 'node:fs/promises';
import type { Page, TestInfo } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { signInPage } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';

// /host/domain/{id}/dns, a domain's zone (GET /host/domain/{id}/dns, POST a record,
// PATCH/DELETE .../{recordId}): the default zone (SOA, NS from the tenant's name servers),
// records by type with per-type checks on their fields, and the SOA serial bumped by each change.

const MAIN = { include: 'main' };
const DIALOG = { include: '[role="dialog"]' };

const serialOf = async (page: Page): Promise<number> => Number(await page.getByTestId('soa-serial').innerText());
const records = (page: Page) => page.getByTestId('dns-record-row');
const notice = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

/** Waits for the serial to pass `before` (each change bumps it) and returns the new one. */
async function serialAfter(page: Page, before: number): Promise<number> {
  await expect.poll(() => serialOf(page), 'the SOA serial goes up').toBeGreaterThan(before);
  return serialOf(page);
}

async function openAddDialog(page: Page) {
  await page.getByRole('main').getByRole('button', { name: 'Add record' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add a DNS record' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** The default zone, A and MX records, field errors, a TTL change and a delete. */
async function manageZone(page: Page, testInfo: TestInfo, domain: { id: number; name: string }, nameServers: string[], who: string) {
  await page.goto(`/host/domain/${domain.id}/dns`);
  // The first page of a fresh session loads the shell and its lazy chunks: slow on a busy machine.
  await expect(page.getByRole('heading', { level: 1, name: `DNS zone of ${domain.name}` })).toBeVisible({ timeout: 30_000 });

  // ---- the default zone: SOA serial and the tenant's name servers ----
  const soa = page.getByRole('region', { name: 'Zone' });
  let serial = await serialOf(page);
  expect(serial, 'a YYYYMMDDnn serial').toBeGreaterThan(2_000_000_000);
  const servers = soa.getByRole('list', { name: 'Name servers' });
  for (const host of nameServers) await expect(servers).toContainText(host);
  // The tenant's name servers, the mail records (MX, SPF, DMARC) and the domain's DKIM key.
  await expect(records(page)).toHaveCount(nameServers.length + 4);
  await expect(records(page).filter({ has: page.locator('td').filter({ hasText: /^NS$/ }) })).toHaveCount(nameServers.length);
  await expect(records(page).filter({ hasText: '._domainkey' })).toContainText('v=DKIM1; k=rsa; p=MII');
  await reviewScreen(page, testInfo, `dns-zone-${who}`, MAIN);

  // ---- an A record ----
  let dialog = await openAddDialog(page);
  await dialog.getByLabel('Name', { exact: true }).fill('www');
  await dialog.getByLabel('IPv4 address').fill('192.0.2.10');
  await reviewScreen(page, testInfo, `dns-add-a-${who}`, DIALOG);
  await dialog.getByRole('button', { name: 'Add record' }).click();
  await expect(dialog).toBeHidden();
  await expect(notice(page, 'The DNS record has been saved.').first()).toBeVisible();
  const www = records(page).filter({ hasText: '192.0.2.10' });
  await expect(www).toContainText('www');
  await expect(www).toContainText('1 hour');
  serial = await serialAfter(page, serial);

  // ---- a backup MX record: the type brings its priority field ----
  dialog = await openAddDialog(page);
  await dialog.getByLabel('Type').selectOption('MX');
  await dialog.getByLabel('Priority').fill('20');
  await dialog.getByLabel('Mail server').fill(`backup.${domain.name}`);
  await expect(dialog.getByLabel('IPv4 address')).toHaveCount(0);
  await reviewScreen(page, testInfo, `dns-add-mx-${who}`, DIALOG);
  await dialog.getByRole('button', { name: 'Add record' }).click();
  await expect(dialog).toBeHidden();
  const mx = records(page).filter({ hasText: `backup.${domain.name}` });
  await expect(mx).toContainText('MX');
  await expect(mx).toContainText('20');
  serial = await serialAfter(page, serial);

  // ---- the server's checks, on their fields ----
  dialog = await openAddDialog(page);
  await dialog.getByLabel('Name', { exact: true }).fill('api');
  const address = dialog.getByLabel('IPv4 address');
  await address.fill('300.1.1.1');
  await dialog.getByRole('button', { name: 'Add record' }).click();
  await expect(address).toHaveAttribute('aria-invalid', 'true');
  await expect(address).toHaveAccessibleDescription(/Enter an IPv4 address, e\.g\. 192\.0\.2\.10\./);
  await reviewScreen(page, testInfo, `dns-invalid-${who}`, DIALOG);

  // A CNAME must be alone at its name, and www has an A record.
  await dialog.getByLabel('Type').selectOption('CNAME');
  const name = dialog.getByLabel('Name', { exact: true });
  await name.fill('www');
  await dialog.getByLabel('Target host name').fill('hosting.example.net');
  await dialog.getByRole('button', { name: 'Add record' }).click();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAccessibleDescription(/A CNAME must be the only record of its name/);
  // A TTL out of bounds is caught before it is sent.
  await dialog.getByLabel('TTL (seconds)').fill('30');
  await dialog.getByRole('button', { name: 'Add record' }).click();
  await expect(dialog.getByLabel('TTL (seconds)')).toHaveAccessibleDescription(/Use a TTL between 60 seconds and 604800 seconds/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(await serialOf(page), 'refused changes leave the serial').toBe(serial);
  await expect(records(page)).toHaveCount(nameServers.length + 6);

  // ---- edit the TTL ----
  await page.getByRole('button', { name: `Edit A www.${domain.name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit A record' });
  await expect(edit.getByLabel('IPv4 address')).toHaveValue('192.0.2.10');
  await edit.getByLabel('TTL (seconds)').fill('300');
  await expect(edit.getByLabel('TTL (seconds)')).toHaveAccessibleDescription(/5 minutes/);
  await edit.getByRole('button', { name: 'Save record' }).click();
  await expect(edit).toBeHidden();
  await expect(www).toContainText('5 minutes');
  serial = await serialAfter(page, serial);
  await reviewScreen(page, testInfo, `dns-records-${who}`, MAIN);

  // ---- the zone as a BIND file, for another DNS host or a backup ----
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export zone file' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${domain.name}.zone`);
  const zoneFile = await readFile((await file.path()) ?? '', 'utf8');
  expect(zoneFile).toContain(`$ORIGIN ${domain.name}.`);
  expect(zoneFile).toContain('www\t300\tIN\tA\t192.0.2.10');

  // ---- delete, after confirming ----
  await page.getByRole('button', { name: `Delete A www.${domain.name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete DNS record' });
  await expect(confirm).toContainText(`www.${domain.name} A 192.0.2.10`);
  await reviewScreen(page, testInfo, `dns-delete-${who}`, DIALOG);
  await confirm.getByRole('button', { name: 'Delete record' }).click();
  await expect(confirm).toBeHidden();
  await expect(notice(page, 'The DNS record has been deleted.')).toBeVisible();
  await expect(www).toHaveCount(0);
  await serialAfter(page, serial);
}

test('a customer manages the DNS zone of their domain', async ({ page, accounts }, testInfo) => {
  // A long walk through every dialog, each screen checked by axe: more than the default minute.
  test.slow();
  const nameServers = await accounts.tenantOneNameServers();
  const owner = await accounts.customer('dns-owner');
  const domain = await accounts.domain(owner);
  await signInPage(page, owner);
  await manageZone(page, testInfo, domain, nameServers, 'customer');
});

test("a host admin manages the DNS zone of a customer's domain", async ({ page, accounts }, testInfo) => {
  // A long walk through every dialog, each screen checked by axe: more than the default minute.
  test.slow();
  const nameServers = await accounts.tenantOneNameServers();
  const owner = await accounts.customer('dns-owner');
  const domain = await accounts.domain(owner);
  const admin = await accounts.hostAdmin();
  await signInPage(page, admin);
  await manageZone(page, testInfo, domain, nameServers, 'host-admin');
});

test('a record taken off the air stays in the list, marked, until it is served again', async ({ page, accounts }, testInfo) => {
  const owner = await accounts.customer('dns-pause');
  const domain = await accounts.domain(owner);
  await signInPage(page, owner);
  const created = await page.request.post(`/api/host/domain/${domain.id}/dns`, { data: { name: 'www', type: 'A', content: '192.0.2.10' } });
  expect(created.status(), await created.text()).toBe(201);
  await page.goto(`/host/domain/${domain.id}/dns`);
  const row = records(page).filter({ hasText: '192.0.2.10' });
  await expect(row).toBeVisible({ timeout: 30_000 });

  await row.getByRole('button', { name: `Take A www.${domain.name} off the air` }).click();
  await expect(notice(page, `A www.${domain.name} is no longer served; it stays in the list.`)).toBeVisible();
  await expect(row).toContainText('Off');
  await reviewScreen(page, testInfo, 'dns-record-off', MAIN);
  await row.getByRole('button', { name: `Serve A www.${domain.name} again` }).click();
  await expect(notice(page, `A www.${domain.name} is served again.`)).toBeVisible();
  await expect(row).not.toContainText('Off');
});

test('a customer signs the zone with DNSSEC, copies the DS record, and stops signing', async ({ page, accounts }, testInfo) => {
  const owner = await accounts.customer('dnssec-owner');
  const domain = await accounts.domain(owner);
  await signInPage(page, owner);
  await page.goto(`/host/domain/${domain.id}/dns`);
  const section = page.getByRole('region', { name: 'DNSSEC' });
  await expect(section).toContainText('Not signed', { timeout: 30_000 });
  const serial = await serialOf(page);

  await section.getByRole('button', { name: 'Sign zone' }).click();
  await expect(notice(page, 'The zone is signed. Give the DS record below to your registrar.')).toBeVisible();
  await expect(section).toContainText('Signed');
  const ds = section.getByTestId('ds-record');
  await expect(ds).toHaveText(new RegExp(`^${domain.name.replaceAll('.', '\\.')}\\. IN DS \\d+ 13 2 [0-9A-F]{64}$`));
  await expect(section).toContainText('13 (ECDSA P-256 with SHA-256)');
  await serialAfter(page, serial);
  await section.scrollIntoViewIfNeeded();
  await reviewScreen(page, testInfo, 'dns-dnssec-signed', MAIN);

  // Stopping asks first, and says why the registrar's DS must go before.
  await section.getByRole('button', { name: 'Stop signing' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop signing this zone?' });
  await expect(dialog).toContainText('Remove the DS record at your registrar first');
  await reviewScreen(page, testInfo, 'dns-dnssec-unsign', DIALOG);
  await dialog.getByRole('button', { name: 'Stop signing' }).click();
  await expect(notice(page, 'The zone is no longer signed.')).toBeVisible();
  await expect(section).toContainText('Not signed');
  await expect(section.getByTestId('ds-record')).toHaveCount(0);
});

test('the mail records are checked, and the proposed ones are added with a click', async ({ page, accounts }, testInfo) => {
  const owner = await accounts.customer('dns-mail');
  const domain = await accounts.domain(owner);
  await signInPage(page, owner);
  await page.goto(`/host/domain/${domain.id}/dns`);
  const section = page.getByRole('region', { name: 'Mail records' });
  const check = (kind: string) => section.getByTestId(`mail-check-${kind}`);
  // A new domain comes with its mail records; only mail.<domain> waits for an address (the
  // tenant has no hosting server address set).
  await expect(check('dkim')).toContainText('Correct', { timeout: 30_000 });
  for (const kind of ['spf', 'dkim', 'dmarc']) await expect(check(kind)).toHaveAttribute('data-state', 'ok');
  await expect(check('mx')).toHaveAttribute('data-state', 'warning');
  await expect(section).toContainText('3 of 4 in order');
  await reviewScreen(page, testInfo, 'dns-mail-records-default', MAIN);

  // A zone made before the mail records came with it: the owner removed MX, SPF and DMARC.
  const zone = (await (await page.request.get(`/api/host/domain/${domain.id}/dns`)).json()) as {
    data: { records: { id: number; type: string; name: string }[] };
  };
  for (const record of zone.data.records.filter((r) => r.type === 'MX' || (r.type === 'TXT' && !r.name.endsWith('._domainkey')))) {
    const removed = await page.request.delete(`/api/host/domain/${domain.id}/dns/${record.id}`);
    expect(removed.status(), await removed.text()).toBe(200);
  }
  await page.reload();
  await expect(check('dkim')).toContainText('Correct', { timeout: 30_000 });
  await expect(check('dkim')).toContainText(/The key of selector berth\d{6} is published\./);
  for (const kind of ['mx', 'spf', 'dmarc']) await expect(check(kind)).toHaveAttribute('data-state', 'missing');
  await expect(section).toContainText('1 of 4 in order');
  await expect(section.getByTestId('mail-proposal-spf')).toHaveText('@ TXT "v=spf1 mx ~all"');
  await expect(section.getByTestId('mail-proposal-mx')).toHaveText(`@ MX 10 mail.${domain.name}`);
  await section.scrollIntoViewIfNeeded();
  await reviewScreen(page, testInfo, 'dns-mail-records-new', MAIN);

  const serial = await serialOf(page);
  await section.getByRole('button', { name: 'Add the proposed SPF record' }).click();
  await expect(notice(page, 'The SPF record has been added.')).toBeVisible();
  await expect(check('spf')).toHaveAttribute('data-state', 'ok');
  await expect(records(page).filter({ hasText: 'v=spf1 mx ~all' })).toHaveCount(1);
  await serialAfter(page, serial);

  await section.getByRole('button', { name: 'Add the proposed DMARC record' }).click();
  await expect(check('dmarc')).toHaveAttribute('data-state', 'ok');
  // The proposed MX points at mail.<domain>, which has no address yet: orange until it has one.
  await section.getByRole('button', { name: 'Add the proposed MX record' }).click();
  await expect(check('mx')).toHaveAttribute('data-state', 'warning');
  await expect(check('mx')).toContainText(`mail.${domain.name} has no A or AAAA record in this zone.`);
  await reviewScreen(page, testInfo, 'dns-mail-records-warning', MAIN);
  const address = await page.request.post(`/api/host/domain/${domain.id}/dns`, {
    data: { name: 'mail', type: 'A', content: '192.0.2.25' },
  });
  expect(address.status(), await address.text()).toBe(201);
  await page.reload();
  await expect(section).toContainText('4 of 4 in order', { timeout: 30_000 });
  await section.scrollIntoViewIfNeeded();
  await reviewScreen(page, testInfo, 'dns-mail-records-done', MAIN);

  // Rotating the DKIM key: the new one is published beside the signing one, which stays.
  const selector = /berth\d{6}/.exec((await check('dkim').textContent()) ?? '')?.[0] ?? '';
  await section.getByRole('button', { name: 'Rotate key' }).click();
  await expect(notice(page, 'A new DKIM key is published; mail is signed with it once receivers can find it.')).toBeVisible();
  await expect(section.getByTestId('dkim-rotation')).toContainText(/New key berth\d{6}b? is published; mail is signed with it from /);
  await expect(section.getByRole('button', { name: 'Rotate key' })).toHaveCount(0);
  await expect(check('dkim')).toHaveAttribute('data-state', 'ok');
  await expect(check('dkim')).toContainText(`The key of selector ${selector} is published.`);
  await expect(records(page).filter({ hasText: 'v=DKIM1' })).toHaveCount(2);
  await section.scrollIntoViewIfNeeded();
  await reviewScreen(page, testInfo, 'dns-mail-records-rotating', MAIN);
});

test('a customer moves a zone in: a BIND file is pasted, its bad lines named, then its records added', async ({
  page,
  accounts,
}, testInfo) => {
  const owner = await accounts.customer('dns-import');
  const domain = await accounts.domain(owner);
  await signInPage(page, owner);
  await page.goto(`/host/domain/${domain.id}/dns`);
  await expect(page.getByRole('heading', { level: 1, name: `DNS zone of ${domain.name}` })).toBeVisible({ timeout: 30_000 });
  const before = await records(page).count();
  const serial = await serialOf(page);

  await page.getByRole('button', { name: 'Import zone file' }).click();
  const dialog = page.getByRole('dialog', { name: `Import a zone file into ${domain.name}` });
  await expect(dialog).toBeVisible();
  const file = dialog.getByRole('textbox', { name: 'Zone file' });
  const zoneFile = [
    `$ORIGIN ${domain.name}.`,
    '$TTL 7200',
    `@ IN SOA ns1.oldhost.net. hostmaster.oldhost.net. ( 2024010101 7200 3600 1209600 300 )`,
    '  IN NS ns1.oldhost.net.',
    'shop 300 IN A 192.0.2.81',
    'www IN CNAME @',
    'old IN A 300.1.1.1',
    'ptr IN PTR host.example.',
  ].join('\n');
  await file.fill(zoneFile);
  await dialog.getByRole('button', { name: 'Import records' }).click();
  const problems = dialog.getByTestId('zone-file-errors');
  await expect(problems).toContainText('Line 7: Enter an IPv4 address, e.g. 192.0.2.10.');
  await expect(problems).toContainText('Line 8: Records of type PTR cannot be kept here');
  await expect(file).toHaveAttribute('aria-invalid', 'true');
  await reviewScreen(page, testInfo, 'dns-import-errors', DIALOG);
  // Nothing was written.
  await expect(records(page)).toHaveCount(before);

  await file.fill(zoneFile.split('\n').slice(0, 6).join('\n'));
  await dialog.getByRole('button', { name: 'Import records' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    notice(page, 'Imported 2 records; 2 were already in the zone or are kept by the zone itself (SOA, name servers).'),
  ).toBeVisible();
  await expect(records(page)).toHaveCount(before + 2);
  await expect(records(page).filter({ hasText: '192.0.2.81' })).toContainText('5 minutes');
  await expect(records(page).filter({ has: page.locator('td').filter({ hasText: /^CNAME$/ }) })).toContainText(domain.name);
  await serialAfter(page, serial);
  await reviewScreen(page, testInfo, 'dns-import-done', MAIN);
});

test.describe("a domain that is not the viewer's", () => {
  // The API answers 404 for another customer's domain (and its menu); the page says so.
  test.use({ allowedConsoleErrors: [/the server responded with a status of 404/] });

  test("another customer's zone is not found", async ({ page, accounts }, testInfo) => {
    const owner = await accounts.customer('dns-owner');
    const domain = await accounts.domain(owner);
    const stranger = await accounts.customer('dns-stranger');
    await signInPage(page, stranger);
    await page.goto(`/host/domain/${domain.id}/dns`);
    await expect(page.getByRole('heading', { level: 1, name: 'Domain not found' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('soa-serial')).toHaveCount(0);
    await reviewScreen(page, testInfo, 'dns-not-found', MAIN);
  });
});
