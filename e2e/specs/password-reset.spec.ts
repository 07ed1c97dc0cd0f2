import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { newPassword } from '../support/accounts.ts';
import { onPath, shellUserName } from '../support/login.ts';
import { linkWithPath } from '../support/mailbox.ts';
import { expectShownFor, pageNow, reviewScreen } from '../support/review.ts';

// docs/product.md §2: /password/forgot and /password/reset/:uniq_id/:token; section 7:
// POST /password/forgot and POST /password/reset/{uniq_id}/{token}. The mail is received by the
// worker's SMTP receiver (support/mailbox.ts).

/** docs/product.md §9. */
const ROUTE_STATE_MESSAGE_MS = 10_000;

const resetForm = (page: Page) => ({
  password: page.getByLabel('New password', { exact: true }),
  confirmation: page.getByLabel('Confirm new password', { exact: true }),
  submit: page.getByRole('button', { name: 'Set new password' }),
});

test('the mailed reset link sets a new password and signs in; the old password and the link stop working', async ({
  page,
  accounts,
  mailbox,
}, testInfo) => {
  const user = await accounts.customer('reset');
  // Fake timers (flowing in real time) so the 10-second route-state message can be skipped over.
  await page.clock.install();

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(onPath('/password/forgot'));
  await expect(page.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeVisible();
  const email = page.getByLabel('E-mail', { exact: true });
  await expect(email).toBeFocused();
  await reviewScreen(page, testInfo, 'password-forgot');

  await email.fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Check your inbox' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'If an account exists for this e-mail address' })).toBeVisible();
  await reviewScreen(page, testInfo, 'password-forgot-sent');

  const mail = await mailbox.waitFor({ to: user.email, subject: /reset your password/i });
  const link = linkWithPath(mail, '/password/reset/');
  expect(link, 'the link is /password/reset/:uniq_id/:token').toMatch(/^\/password\/reset\/[^/?#]+\/[^/?#]+$/);

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Set a new password' })).toBeVisible();
  const form = resetForm(page);
  const password = newPassword();
  await form.password.fill(password);
  await form.confirmation.fill(password);
  await reviewScreen(page, testInfo, 'password-reset');
  await form.submit.click();

  // Signed in (docs/product.md §4) and on the dashboard with the answer's message.
  await expect(page).toHaveURL(onPath('/dashboard'));
  await expect(shellUserName(page)).toContainText(user.givenName);
  const message = page.getByRole('status').filter({ hasText: 'Your password has been changed.' });
  await message.waitFor({ state: 'visible' });
  const shownAt = await pageNow(page);
  await reviewScreen(page, testInfo, 'password-reset-signed-in', { include: 'main' });
  // Route-state messages show for 10000 ms (docs/product.md §4 and §9).
  await expectShownFor(page, message, shownAt, ROUTE_STATE_MESSAGE_MS);

  expect(await accounts.loginOutcome(user.email, user.password), 'the old password no longer logs in').toBe('rejected');
  expect(await accounts.loginOutcome(user.email, password), 'the new password logs in').toBe('authenticated');

  // The link works once: opened again (by anyone), it says so and offers a new one.
  await page.context().clearCookies();
  await page.goto(link);
  const again = resetForm(page);
  const other = newPassword();
  await again.password.fill(other);
  await again.confirmation.fill(other);
  await again.submit.click();
  const invalid = page.getByRole('alert').filter({ hasText: 'This link does not work' });
  await expect(invalid).toBeVisible();
  await expect(invalid).toContainText('This password reset link is invalid or has expired.');
  await expect(invalid.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/password/forgot');
  await expect(page).toHaveURL(onPath(link));
  await reviewScreen(page, testInfo, 'password-reset-invalid-link');
  expect(await accounts.loginOutcome(user.email, other), 'the spent link changed nothing').toBe('rejected');
});

test('the new password must be long enough and confirmed before anything is sent', async ({ page, accounts, mailbox }) => {
  const user = await accounts.customer('reset-rules');
  await page.goto('/password/forgot');
  await page.getByLabel('E-mail', { exact: true }).fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  const link = linkWithPath(await mailbox.waitFor({ to: user.email, subject: /reset your password/i }), '/password/reset/');

  await page.goto(link);
  const form = resetForm(page);
  let posted = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/api/password/reset/')) posted++;
  });
  await form.password.fill('too-short');
  await form.confirmation.fill('something-else');
  await form.submit.click();
  await expect(form.password).toHaveAccessibleDescription(/Use at least 15 characters/);
  await expect(form.confirmation).toHaveAccessibleDescription(/The two passwords do not match\./);
  expect(posted, 'the form did not submit').toBe(0);

  // The link is still good after that.
  const password = newPassword();
  await form.password.fill(password);
  await form.confirmation.fill(password);
  await form.submit.click();
  await expect(page).toHaveURL(onPath('/dashboard'));
  await expect(shellUserName(page)).toContainText(user.givenName);
});
