import { request, type Page, type TestInfo } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { newPassword, signInPage, type Customer } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';

// /host/domain/{id}/users, the mailbox/FTP accounts of a domain (GET/POST
// /host/domain/{id}/users, PATCH/DELETE .../{userId}, POST .../{userId}/password), as the
// domain's owner and as a host admin acting on a customer's domain. The accounts are the ones
// /change-password (PATCH /host/domain-user/change-password) works for.

/** The page's own content; the shell specs check the frame. */
const MAIN = { include: 'main' };
const DIALOG = { include: '[role="dialog"]' };

const dialog = (page: Page, name: string) => page.getByRole('dialog', { name });
const accountRow = (page: Page, uid: string) => page.getByTestId('domain-user-row').filter({ hasText: uid });
const notice = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

/**
 * PATCH /api/host/domain-user/change-password as the account's own user would (no panel
 * session): the answer's status says whether `oldPassword` is the account's password.
 */
async function changeOwnPassword(baseURL: string, uid: string, oldPassword: string): Promise<number> {
  const api = await request.newContext({ baseURL });
  try {
    const next = newPassword();
    const answer = await api.patch('/api/host/domain-user/change-password', {
      data: { uid, user_password_old: oldPassword, user_password: next, user_password_confirmation: next },
    });
    return answer.status();
  } finally {
    await api.dispose();
  }
}

async function openRowAction(page: Page, uid: string, action: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${uid}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

/** Create, duplicate, reset the password, disable, delete: what an owner and an admin both do. */
async function manageAccounts(page: Page, testInfo: TestInfo, baseURL: string, domain: { id: number; name: string }, who: string) {
  await page.goto(`/host/domain/${domain.id}/users`);
  // The first page of a fresh session loads the shell and its lazy chunks: slow on a busy machine.
  await expect(page.getByRole('heading', { level: 1, name: `Mailbox & FTP users of ${domain.name}` })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('No accounts yet')).toBeVisible();
  await expect(page.getByRole('link', { name: /\/change-password$/ })).toBeVisible();
  await reviewScreen(page, testInfo, `domain-users-empty-${who}`, MAIN);

  // ---- create ----
  await page.getByRole('button', { name: 'Add account' }).first().click();
  const create = dialog(page, 'Add an account');
  await expect(create).toBeVisible();
  const uidField = create.getByLabel('Login (uid)', { exact: true });
  await uidField.fill('sales');
  await expect(uidField).toHaveAccessibleDescription(`The full login is sales@${domain.name}`);
  await create.getByLabel('Password', { exact: true }).fill('short');
  await create.getByLabel('Confirm password', { exact: true }).fill('different');
  await create.getByRole('button', { name: 'Add account' }).click();
  await expect(create.getByLabel('Password', { exact: true })).toHaveAccessibleDescription(/Use at least 15 characters/);
  await expect(create.getByLabel('Confirm password', { exact: true })).toHaveAccessibleDescription(/The two passwords do not match\./);
  await reviewScreen(page, testInfo, `domain-users-create-${who}`, DIALOG);

  const first = newPassword();
  await create.getByLabel('Password', { exact: true }).fill(first);
  await create.getByLabel('Confirm password', { exact: true }).fill(first);
  await create.getByLabel('Quota').fill('2048');
  await create.getByRole('button', { name: 'Add account' }).click();
  await expect(create).toBeHidden();
  const uid = `sales@${domain.name}`;
  await expect(notice(page, `The account ${uid} has been created.`)).toBeVisible();
  const row = accountRow(page, uid);
  await expect(row).toBeVisible();
  await expect(row).toContainText('2 GB');
  await expect(row).toContainText('Enabled');
  await expect(page.getByRole('switch', { name: `${uid} enabled` })).toBeChecked();
  await reviewScreen(page, testInfo, `domain-users-list-${who}`, MAIN);

  // ---- the same uid again: the server's 422 on the field ----
  await page.getByRole('button', { name: 'Add account' }).first().click();
  await expect(create).toBeVisible();
  await expect(uidField, 'the dialog starts empty').toHaveValue('');
  await uidField.fill('sales');
  const other = newPassword();
  await create.getByLabel('Password', { exact: true }).fill(other);
  await create.getByLabel('Confirm password', { exact: true }).fill(other);
  await create.getByRole('button', { name: 'Add account' }).click();
  await expect(uidField).toHaveAttribute('aria-invalid', 'true');
  await expect(uidField).toHaveAccessibleDescription(/This login \(uid\) already exists\./);
  await reviewScreen(page, testInfo, `domain-users-duplicate-${who}`, DIALOG);
  await create.getByRole('button', { name: 'Cancel' }).click();
  await expect(create).toBeHidden();
  await expect(page.getByTestId('domain-user-row')).toHaveCount(1);

  // ---- what a mail program needs for this mailbox ----
  await openRowAction(page, uid, 'Mail client settings');
  const settings = dialog(page, `Mail client settings for ${uid}`);
  const table = settings.getByTestId('mail-client-settings');
  await expect(table.getByRole('row', { name: /User name/ })).toContainText(uid);
  await expect(table.getByRole('row', { name: /Incoming \(IMAP\)/ })).toContainText(`mail.${domain.name} · 993 · SSL/TLS`);
  await expect(table.getByRole('row', { name: /Outgoing \(SMTP\)/ })).toContainText(`mail.${domain.name} · 587 · STARTTLS`);
  await reviewScreen(page, testInfo, `domain-users-client-settings-${who}`, DIALOG);
  await page.keyboard.press('Escape');
  await expect(settings).toBeHidden();

  // ---- the autoresponder: refused without its text, then on, shown in the list, kept ----
  await openRowAction(page, uid, 'Autoresponder');
  const autoreply = dialog(page, `Autoresponder of ${uid}`);
  const replySwitch = autoreply.getByRole('switch', { name: 'Send automatic replies' });
  await expect(replySwitch).not.toBeChecked();
  await replySwitch.focus();
  await page.keyboard.press('Space');
  await autoreply.getByLabel('First day', { exact: true }).fill('2027-01-10');
  await autoreply.getByLabel('Last day', { exact: true }).fill('2027-01-03');
  await autoreply.getByRole('button', { name: 'Save autoresponder' }).click();
  await expect(autoreply.getByLabel('Subject')).toHaveAccessibleDescription(/This field is required\./);
  await expect(autoreply.getByLabel('Message')).toHaveAccessibleDescription(/This field is required\./);
  await expect(autoreply.getByLabel('Last day', { exact: true })).toHaveAccessibleDescription(/The last day cannot be before the first\./);
  await autoreply.getByLabel('Subject').fill('Away until 10 January');
  await autoreply.getByLabel('Message').fill('Thank you for your mail.\nWe answer after the holidays.');
  await autoreply.getByLabel('First day', { exact: true }).fill('');
  await autoreply.getByLabel('Last day', { exact: true }).fill('2027-01-10');
  await autoreply.getByLabel('Reply interval').fill('3');
  await reviewScreen(page, testInfo, `domain-users-autoreply-${who}`, DIALOG);
  await autoreply.getByRole('button', { name: 'Save autoresponder' }).click();
  await expect(autoreply).toBeHidden();
  await expect(notice(page, `The autoresponder of ${uid} is on.`)).toBeVisible();
  await expect(row).toContainText('Auto-reply on');
  await openRowAction(page, uid, 'Autoresponder');
  await expect(autoreply.getByLabel('Subject')).toHaveValue('Away until 10 January');
  await expect(autoreply.getByLabel('Message')).toHaveValue('Thank you for your mail.\nWe answer after the holidays.');
  await expect(autoreply.getByLabel('Last day', { exact: true })).toHaveValue('01/10/2027');
  await expect(autoreply.getByLabel('Reply interval')).toHaveValue('3 days');
  await page.keyboard.press('Escape');
  await expect(autoreply).toBeHidden();

  // ---- the spam filter: normal by default, strict shown in the list and kept ----
  await openRowAction(page, uid, 'Spam filter');
  const filter = dialog(page, `Spam filter of ${uid}`);
  await expect(filter.getByRole('radio', { name: 'Normal' })).toBeChecked();
  await filter.getByRole('radio', { name: 'Strict' }).check();
  await reviewScreen(page, testInfo, `domain-users-spam-filter-${who}`, DIALOG);
  await filter.getByRole('button', { name: 'Save spam filter' }).click();
  await expect(filter).toBeHidden();
  await expect(row).toContainText('Strict spam filter');
  await openRowAction(page, uid, 'Spam filter');
  await expect(filter.getByRole('radio', { name: 'Strict' })).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(filter).toBeHidden();

  // ---- reset the password; the new one is the account's password now ----
  await openRowAction(page, uid, 'Reset password');
  const reset = dialog(page, 'Reset password');
  await expect(reset).toContainText(uid);
  await reviewScreen(page, testInfo, `domain-users-reset-${who}`, DIALOG);
  const second = newPassword();
  await reset.getByLabel('New password', { exact: true }).fill(second);
  await reset.getByLabel('Confirm new password', { exact: true }).fill(second);
  await reset.getByRole('button', { name: 'Set password' }).click();
  await expect(reset).toBeHidden();
  await expect(notice(page, `The password of ${uid} has been changed.`)).toBeVisible();
  expect(await changeOwnPassword(baseURL, uid, first), 'the first password no longer works').toBe(422);
  expect(await changeOwnPassword(baseURL, uid, second), 'the password set by the reset works').toBe(200);

  // ---- change the quota ----
  await openRowAction(page, uid, 'Change quota');
  const quota = dialog(page, `Quota of ${uid}`);
  await expect(quota.getByLabel('Quota')).toHaveValue('2048');
  await quota.getByLabel('Quota').fill('512');
  await quota.getByRole('button', { name: 'Save quota' }).click();
  await expect(quota).toBeHidden();
  await expect(row).toContainText('512 MB');

  // ---- disable: a disabled account cannot change its password either ----
  const toggle = page.getByRole('switch', { name: `${uid} enabled` });
  // The switch's input is drawn by its track; the keyboard reaches it as a user does.
  await toggle.focus();
  await page.keyboard.press('Space');
  await expect(toggle).not.toBeChecked();
  await expect(row).toContainText('Disabled');
  await expect(notice(page, `The account ${uid} has been saved.`).first()).toBeVisible();
  await reviewScreen(page, testInfo, `domain-users-disabled-${who}`, MAIN);

  // ---- delete, after confirming ----
  await openRowAction(page, uid, 'Delete');
  const confirm = dialog(page, 'Delete account');
  await expect(confirm).toContainText(`Delete ${uid}?`);
  await reviewScreen(page, testInfo, `domain-users-delete-${who}`, DIALOG);
  await confirm.getByRole('button', { name: 'Delete account' }).click();
  await expect(confirm).toBeHidden();
  await expect(notice(page, `The account ${uid} has been deleted.`)).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('No accounts yet')).toBeVisible();
}

test('a customer manages the mailbox and FTP accounts of their domain', async ({ page, accounts, baseURL }, testInfo) => {
  // A long walk through every dialog, each screen checked by axe: more than the default minute.
  test.slow();
  const owner = await accounts.customer('users-owner');
  const domain = await accounts.domain(owner);
  await signInPage(page, owner);
  await manageAccounts(page, testInfo, baseURL ?? '', domain, 'customer');
});

test("a host admin manages the accounts of a customer's domain", async ({ page, accounts, baseURL }, testInfo) => {
  // A long walk through every dialog, each screen checked by axe: more than the default minute.
  test.slow();
  const owner = await accounts.customer('users-owner');
  const domain = await accounts.domain(owner);
  const admin: Customer = await accounts.hostAdmin();
  await signInPage(page, admin);
  await manageAccounts(page, testInfo, baseURL ?? '', domain, 'host-admin');
});

test.describe("a domain that is not the viewer's", () => {
  // The API answers 404 for another customer's domain (and its menu); the page says so.
  test.use({ allowedConsoleErrors: [/the server responded with a status of 404/] });

  test("another customer's domain is not found", async ({ page, accounts }, testInfo) => {
    const owner = await accounts.customer('users-owner');
    const domain = await accounts.domain(owner);
    const stranger = await accounts.customer('users-stranger');
    await signInPage(page, stranger);
    await page.goto(`/host/domain/${domain.id}/users`);
    await expect(page.getByRole('heading', { level: 1, name: 'Domain not found' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText(domain.name)).toHaveCount(0);
    await reviewScreen(page, testInfo, 'domain-users-not-found', MAIN);
  });
});
