import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { newPassword } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';

// docs/product.md §2: /change-password; section 5 and 8: the combined uid-and-password error's
// messages are joined above the form; section 7: PATCH /host/domain-user/change-password. The
// domain and its mailbox account are made by the super admin through the API.

const changeForm = (page: Page) => ({
  uid: page.getByLabel('Login (uid)', { exact: true }),
  old: page.getByLabel('Old password', { exact: true }),
  password: page.getByLabel('New password', { exact: true }),
  confirmation: page.getByLabel('Confirm new password', { exact: true }),
  submit: page.getByRole('button', { name: 'Change password' }),
});

const isChangeCall = (url: string, method: string) =>
  method === 'PATCH' && new URL(url).pathname === '/api/host/domain-user/change-password';

/** Fills and submits the form; returns once the server has answered (the form is then idle again). */
async function submitChange(page: Page, uid: string, oldPassword: string, password: string): Promise<number> {
  const form = changeForm(page);
  await form.uid.fill(uid);
  await form.old.fill(oldPassword);
  await form.password.fill(password);
  await form.confirmation.fill(password);
  const answer = page.waitForResponse((response) => isChangeCall(response.url(), response.request().method()));
  await form.submit.click();
  const status = (await answer).status();
  await expect(form.submit).toBeEnabled();
  return status;
}

const WRONG_UID_OR_PASSWORD = 'The login (uid) or the current password is not correct.';

test('a domain user changes their password with the old one; wrong credentials are told above the form', async ({
  page,
  accounts,
}, testInfo) => {
  const account = await accounts.domainUser();
  await page.goto('/change-password');
  await expect(page.getByRole('heading', { level: 1, name: "Change a domain user's password" })).toBeVisible();
  await reviewScreen(page, testInfo, 'change-password');

  const form = changeForm(page);
  const error = page.getByRole('alert').filter({ hasText: WRONG_UID_OR_PASSWORD });

  // A uid that does not exist and a wrong old password get the same answer, above the form.
  expect(await submitChange(page, `nobody@${account.domain}`, account.password, newPassword())).toBe(422);
  await expect(error).toBeVisible();
  const errorBox = await error.boundingBox();
  const formBox = await form.uid.boundingBox();
  expect(errorBox && formBox && errorBox.y + errorBox.height <= formBox.y, 'the error is above the form').toBe(true);
  await reviewScreen(page, testInfo, 'change-password-wrong');

  // A new try that the form itself stops (too short) shows its field error, not the old alert above.
  await form.password.fill('short');
  await form.submit.click();
  await expect(form.password).toHaveAccessibleDescription(/Use at least 15 characters/);
  await expect(error).toHaveCount(0);

  const first = newPassword();
  expect(await submitChange(page, account.uid, `${account.password}-wrong`, first)).toBe(422);
  await expect(error).toBeVisible();

  // The right one: success, and the password fields are emptied.
  expect(await submitChange(page, account.uid, account.password, first)).toBe(200);
  const success = page.getByRole('status').filter({ hasText: `The password of ${account.uid} has been changed.` });
  await expect(success).toBeVisible();
  await expect(error).toHaveCount(0);
  await expect(form.uid).toHaveValue(account.uid);
  await expect(form.old).toHaveValue('');
  await expect(form.password).toHaveValue('');
  await reviewScreen(page, testInfo, 'change-password-done');

  // The new password is the one that works now: the old one is refused, the new one changes it back.
  expect(await submitChange(page, account.uid, account.password, newPassword())).toBe(422);
  await expect(error).toBeVisible();
  expect(await submitChange(page, account.uid, first, account.password)).toBe(200);
  await expect(success).toBeVisible();
  await expect(error).toHaveCount(0);
});

test('the new password must be long enough and confirmed', async ({ page }) => {
  let sent = 0;
  page.on('request', (request) => {
    if (isChangeCall(request.url(), request.method())) sent++;
  });
  await page.goto('/change-password');
  const form = changeForm(page);
  await form.uid.fill('info@example.test');
  await form.old.fill('whatever-it-was');
  await form.password.fill('short');
  await form.confirmation.fill('different');
  await form.submit.click();
  await expect(form.password).toHaveAccessibleDescription(/Use at least 15 characters/);
  await expect(form.confirmation).toHaveAccessibleDescription(/The two passwords do not match\./);
  expect(sent, 'nothing was sent').toBe(0);
});
