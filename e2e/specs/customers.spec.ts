import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { newPassword, uniqueEmail, uniqueToken, type Customer } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';
import { linkWithPath } from '../support/mailbox.ts';
import { signIn } from '../support/shell-session.ts';

// /system/customers (host admins): the list with its search, /create (field errors
// from the form and from the server's password policy), /{id} (contact data, lock and unlock,
// reset 2FA, delete after typing the e-mail). "Log in as" is impersonation.spec.ts.

const SHELL_PAGE = { include: 'main' };
const detailPath = /^\/system\/customers\/(\d+)$/;

async function openAsHostAdmin(page: Page, baseURL: string, admin: Customer, path: string): Promise<void> {
  await signIn(page.context(), baseURL, admin.email, admin.password);
  await page.goto(path);
  await expect(page.getByTestId('shell-user-name')).toBeAttached();
}

const dialog = (page: Page) => page.getByRole('dialog');
const accessSection = (page: Page) => page.getByRole('region', { name: 'Access' });

test('a host admin finds customers and creates one, with field errors first', async ({ page, accounts, baseURL }, testInfo) => {
  const admin = await accounts.hostAdmin('customers-admin');
  const listed = await accounts.customer('listed');
  await openAsHostAdmin(page, baseURL as string, admin, '/system/customers');
  await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
  await expect(page.getByRole('table').getByRole('link').first()).toBeVisible();
  await reviewScreen(page, testInfo, 'customers-list', SHELL_PAGE);
  // Other specs' customers share tenant 1: the search finds this one; an admin is no customer.
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill(listed.email);
  await expect(page).toHaveURL((url) => url.searchParams.get('q') === listed.email);
  await expect(page.getByRole('table').getByRole('link')).toHaveText([`${listed.givenName} ${listed.surname}`]);
  // The reseller's export holds what the list shows (its search too).
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('customers.csv');
  const csv = await readFile((await file.path()) ?? '', 'utf8');
  expect(csv.trimEnd().split('\r\n')).toEqual([
    'id,email,given_name,surname,phone,language,domains,two_factor,locked,email_verified,created_at',
    expect.stringContaining(`"${listed.email}","${listed.givenName}","${listed.surname}"`),
  ]);
  await search.fill(admin.email);
  await expect(page.getByText('No customer found')).toBeVisible();
  await search.fill('');

  await page.getByRole('link', { name: 'New customer' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New customer' })).toBeVisible();
  await reviewScreen(page, testInfo, 'customers-create', SHELL_PAGE);
  // Setting a first password is the exception: the invitation is ticked.
  const invite = page.getByRole('checkbox', { name: 'Send an invitation to choose their own password' });
  await expect(invite).toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Password', exact: true })).toHaveCount(0);
  await invite.uncheck();

  const email = page.getByRole('textbox', { name: 'E-mail' });
  const password = page.getByRole('textbox', { name: 'Password', exact: true });
  const confirmation = page.getByRole('textbox', { name: 'Confirm password', exact: true });
  const create = page.getByRole('button', { name: 'Create customer' });

  // The form's own checks: a bad e-mail address and a short password.
  await email.fill('not-an-address');
  await page.getByRole('textbox', { name: 'Given name' }).fill('Nora');
  const surname = `Newcomer ${uniqueToken(2)}`;
  await page.getByRole('textbox', { name: 'Surname' }).fill(surname);
  await password.fill('short');
  await confirmation.fill('short');
  await create.click();
  await expect(email).toHaveAccessibleDescription(/Enter a valid e-mail address\./);
  await expect(password).toHaveAccessibleDescription(/Use at least 15 characters/);

  // The server's policy: long enough, but the customer's own e-mail address.
  const address = uniqueEmail('created');
  expect(address.length).toBeGreaterThanOrEqual(15);
  await email.fill(address);
  await password.fill(address);
  await confirmation.fill(address);
  const refused = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/system/customers');
  await create.click();
  expect((await refused).status()).toBe(422);
  await expect(password).toHaveAccessibleDescription(/The password must not be your e-mail address or login\./);
  await reviewScreen(page, testInfo, 'customers-create-errors', SHELL_PAGE);

  const initial = newPassword();
  await password.fill(initial);
  await confirmation.fill(initial);
  await page.getByRole('textbox', { name: 'Phone numbers' }).fill('+420 123 456 789');
  await page.getByRole('textbox', { name: 'Phone numbers' }).press('Enter');
  await create.click();
  await expect(page).toHaveURL((url) => detailPath.test(url.pathname));
  await expect(page.getByRole('heading', { level: 1, name: `Nora ${surname}` })).toBeVisible();
  await expect(page.getByText(`The customer ${address} has been created.`)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Contact data' }).getByText('+420 123 456 789')).toBeVisible();
  expect(await accounts.loginOutcome(address, initial)).toBe('authenticated');
  await reviewScreen(page, testInfo, 'customers-detail', SHELL_PAGE);
});

test("a host admin edits a customer's contact data, then deletes the customer with their domains", async ({
  page,
  accounts,
  berth,
  baseURL,
}, testInfo) => {
  const admin = await accounts.hostAdmin('delete-admin');
  const customer = await accounts.customer('to-delete');
  const domain = await accounts.domain(customer);
  const address = customer.email;
  await openAsHostAdmin(page, baseURL as string, admin, `/system/customers/${customer.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `${customer.givenName} ${customer.surname}` })).toBeVisible();
  await reviewScreen(page, testInfo, 'customers-edit', SHELL_PAGE);

  // Contact data: a new surname and a phone number, kept after a reload.
  const contact = page.getByRole('region', { name: 'Contact data' });
  const renamed = `Renamed ${uniqueToken(2)}`;
  await contact.getByRole('textbox', { name: 'Surname' }).fill(renamed);
  await contact.getByRole('textbox', { name: 'Phone numbers' }).fill('+49 30 1234567');
  await contact.getByRole('textbox', { name: 'Phone numbers' }).press('Enter');
  await contact.getByRole('button', { name: 'Save changes' }).click();
  await expect(contact.getByText(`The customer ${address} has been saved.`)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: `${customer.givenName} ${renamed}` })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: `${customer.givenName} ${renamed}` })).toBeVisible();
  await expect(contact.getByText('+49 30 1234567')).toBeVisible();

  // Delete: the button stays disabled until the e-mail address is typed.
  await page.getByRole('button', { name: 'Delete customer' }).click();
  await expect(dialog(page)).toContainText('their 1 domain');
  const confirm = dialog(page).getByRole('button', { name: 'Delete for good' });
  await expect(confirm).toBeDisabled();
  await dialog(page).getByRole('textbox', { name: 'E-mail address of the customer' }).fill(address.toUpperCase());
  await expect(confirm).toBeEnabled();
  await reviewScreen(page, testInfo, 'customers-delete-dialog');
  await confirm.click();
  await expect(page).toHaveURL((url) => url.pathname === '/system/customers');
  await expect(page.getByText(`The customer ${address} and their domains have been deleted.`)).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill(address);
  await expect(page.getByText('No customer found')).toBeVisible();
  await reviewScreen(page, testInfo, 'customers-list-no-match', SHELL_PAGE);
  expect(await accounts.loginOutcome(address, customer.password)).toBe('rejected');
  const superAdmin = await accounts.signedIn(berth.admin);
  expect((await superAdmin.get(`/api/host/domain/${domain.id}`)).status(), 'the domain went with its owner').toBe(404);
});

test('a locked customer cannot log in until unlocked', async ({ page, accounts, baseURL }, testInfo) => {
  const admin = await accounts.hostAdmin('lock-admin');
  const customer = await accounts.customer('lockable');
  await openAsHostAdmin(page, baseURL as string, admin, `/system/customers/${customer.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `${customer.givenName} ${customer.surname}` })).toBeVisible();

  await accessSection(page).getByRole('button', { name: 'Lock', exact: true }).click();
  await expect(dialog(page)).toContainText(`${customer.email} will not be able to log in`);
  await reviewScreen(page, testInfo, 'customers-lock-dialog');
  await dialog(page).getByRole('button', { name: 'Lock customer' }).click();
  await expect(page.getByText(`The customer ${customer.email} is locked and has been signed out.`)).toBeVisible();
  await expect(accessSection(page).getByText('Locked', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log in as customer' })).toBeDisabled();
  expect(await accounts.loginOutcome(customer.email, customer.password)).toBe('rejected');
  await reviewScreen(page, testInfo, 'customers-locked', SHELL_PAGE);

  await accessSection(page).getByRole('button', { name: 'Unlock', exact: true }).click();
  await dialog(page).getByRole('button', { name: 'Unlock customer' }).click();
  await expect(page.getByText(`The customer ${customer.email} is unlocked.`)).toBeVisible();
  await expect(accessSection(page).getByText('Active', { exact: true })).toBeVisible();
  expect(await accounts.loginOutcome(customer.email, customer.password)).toBe('authenticated');
});

test("a host admin turns off a customer's two-factor authentication", async ({ page, accounts, baseURL }, testInfo) => {
  const admin = await accounts.hostAdmin('2fa-admin');
  const customer = await accounts.customer('lost-phone');
  await accounts.enableTwoFactor(customer);
  expect(await accounts.loginOutcome(customer.email, customer.password)).toBe('two_factor_required');

  await openAsHostAdmin(page, baseURL as string, admin, `/system/customers/${customer.id}`);
  await expect(accessSection(page).getByText('On', { exact: true })).toBeVisible();
  await accessSection(page).getByRole('button', { name: 'Reset two-factor authentication' }).click();
  await expect(dialog(page)).toContainText('They are told by e-mail.');
  await dialog(page).getByRole('button', { name: 'Turn it off' }).click();
  await expect(page.getByText(`Two-factor authentication of ${customer.email} has been turned off.`)).toBeVisible();
  await expect(accessSection(page).getByText('Off', { exact: true })).toBeVisible();
  await expect(accessSection(page).getByRole('button', { name: 'Reset two-factor authentication' })).toHaveCount(0);
  expect(await accounts.loginOutcome(customer.email, customer.password)).toBe('authenticated');
  await reviewScreen(page, testInfo, 'customers-2fa-reset', SHELL_PAGE);
});

test('a customer opening /system/customers is told it is for administrators', async ({ page, accounts, baseURL }, testInfo) => {
  const customer = await accounts.customer('not-admin');
  await signIn(page.context(), baseURL as string, customer.email, customer.password);
  await page.goto('/system/customers');
  await expect(page.getByText('Only host administrators and super administrators manage customers.')).toBeVisible();
  await reviewScreen(page, testInfo, 'customers-not-allowed', SHELL_PAGE);
});

test('a host admin invites a customer, who chooses their own password from the mail', async ({
  page,
  accounts,
  baseURL,
  mailbox,
}, testInfo) => {
  const admin = await accounts.hostAdmin('inviting-admin');
  await openAsHostAdmin(page, baseURL as string, admin, '/system/customers/create');
  const address = uniqueEmail('invited');
  await page.getByRole('textbox', { name: 'E-mail' }).fill(address);
  await page.getByRole('textbox', { name: 'Given name' }).fill('Ivana');
  await page.getByRole('textbox', { name: 'Surname' }).fill(`Invited ${uniqueToken(2)}`);
  await page.getByRole('button', { name: 'Create customer' }).click();
  await expect(page).toHaveURL((url) => detailPath.test(url.pathname));

  const mail = await mailbox.waitFor({ to: address, subject: /your account at .* is ready/i });
  expect(mail.text).toContain(`${admin.givenName} ${admin.surname} has created an account for you`);
  expect(mail.text).toContain('valid for 7 days');
  const link = linkWithPath(mail, '/password/reset/');
  await page.context().clearCookies();
  await page.goto(link);
  const chosen = newPassword();
  await page.getByLabel('New password', { exact: true }).fill(chosen);
  await page.getByLabel('Confirm new password', { exact: true }).fill(chosen);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/dashboard');
  await reviewScreen(page, testInfo, 'customers-invited-first-login', SHELL_PAGE);
  expect(await accounts.loginOutcome(address, chosen)).toBe('authenticated');
});
