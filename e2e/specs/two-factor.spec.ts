import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { test, expect } from '../support/fixtures.ts';
import { nextTotpEpoch, wrongTotpCode } from '../support/accounts.ts';
import { logOut, onPath, shellUserName, submitLogin } from '../support/login.ts';
import { reviewScreen } from '../support/review.ts';

// docs/product.md §2: /login2fa (with its link to recovery) and /login2fa/recovery; section 4:
// recovery-code login redirects to /account/2fa; section 7: POST /login2fa and
// POST /login2fa/recovery. TOTP codes are computed from the secret the setup shows.

/** /account/2fa is an inner page of the shell: axe checks the page, the shell specs the frame. */
const SHELL_PAGE = { include: 'main' };

const statusSection = (page: Page) => page.getByRole('region', { name: 'Status' });
const recoverySection = (page: Page) => page.getByRole('region', { name: 'Recovery codes' });

test('enable two-factor authentication, log in with the app and with a recovery code, then disable it', async ({
  page,
  accounts,
}, testInfo) => {
  // Four password checks (argon2) and three logins in one journey: more than 60 s on a busy machine.
  test.slow();
  const user = await accounts.customer('2fa');
  await submitLogin(page, user.email, user.password);
  await expect(shellUserName(page)).toContainText(user.givenName);

  // ---- enable on /account/2fa ----
  await page.goto('/account/2fa');
  await expect(page.getByRole('heading', { level: 1, name: 'Two-factor authentication' })).toBeVisible();
  await expect(statusSection(page)).toContainText('Two-factor authentication is off');
  // The side menu's item says so too, and follows the change without a reload (below).
  const menuItem = page.getByRole('navigation', { name: 'Main' }).getByTestId('nav-account.2fa');
  await expect(menuItem).toContainText('Off');
  await reviewScreen(page, testInfo, 'account-2fa-off', SHELL_PAGE);
  await page.getByLabel('Current password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Enable two-factor authentication' }).click();

  const secretBox = page.getByTestId('twofactor-secret');
  await expect(secretBox).toBeVisible();
  const secret = (await secretBox.innerText()).replace(/\s+/g, '');
  expect(secret, 'a base32 secret').toMatch(/^[A-Z2-7]{16,}$/);
  await expect(page.getByRole('img', { name: 'QR code to add this account to an authenticator app' })).toBeVisible();
  await reviewScreen(page, testInfo, 'account-2fa-setup', SHELL_PAGE);

  await page.getByLabel('Authentication code').fill(await generate({ secret }));
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();

  const codeList = page.getByRole('list', { name: 'Your recovery codes' });
  await expect(codeList.getByRole('listitem')).toHaveCount(10);
  const recoveryCodes = (await codeList.getByRole('listitem').allInnerTexts()).map((code) => code.trim());
  expect(new Set(recoveryCodes).size, 'ten different recovery codes').toBe(10);
  await expect(page.getByRole('status').filter({ hasText: 'Two-factor authentication is enabled.' })).toBeVisible();
  const done = page.getByRole('button', { name: 'Done' });
  await expect(done, 'the codes must be saved first').toBeDisabled();
  await reviewScreen(page, testInfo, 'account-2fa-recovery-codes', SHELL_PAGE);
  await page.getByRole('checkbox', { name: 'I have saved these codes' }).check();
  await done.click();
  await expect(statusSection(page)).toContainText('Two-factor authentication is on');
  await expect(menuItem, 'the menu badge goes with the change, no reload').not.toContainText('Off');
  await expect(recoverySection(page)).toContainText('10 codes left');

  // ---- the second login step with a code from the app ----
  await logOut(page);
  await submitLogin(page, user.email, user.password);
  await expect(page).toHaveURL(onPath('/login2fa'));
  await expect(page.getByRole('heading', { level: 1, name: 'Two-factor authentication' })).toBeVisible();
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeFocused();
  await reviewScreen(page, testInfo, 'login2fa');

  await code.fill(await wrongTotpCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  await expect(code).toHaveAccessibleDescription(/The code is not valid\. Please try again\./);
  await reviewScreen(page, testInfo, 'login2fa-wrong-code');

  // The enabling code's time step is spent: the next step's code is accepted (±1 step) and new.
  await code.fill(await generate({ secret, epoch: nextTotpEpoch() }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(onPath('/dashboard'));
  await expect(shellUserName(page)).toContainText(user.givenName);

  // ---- the second login step with a recovery code ----
  await logOut(page);
  await submitLogin(page, user.email, user.password);
  await expect(page).toHaveURL(onPath('/login2fa'));
  await page.getByRole('link', { name: 'Use a recovery code' }).click();
  await expect(page).toHaveURL(onPath('/login2fa/recovery'));
  await expect(page.getByRole('heading', { level: 1, name: 'Use a recovery code' })).toBeVisible();
  const recovery = page.getByLabel('Recovery code');
  await expect(recovery).toBeFocused();
  await reviewScreen(page, testInfo, 'login2fa-recovery');

  await recovery.fill('AAAA-BBBB-CCCC-DDDD');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(recovery).toHaveAccessibleDescription(/This recovery code is not valid or has already been used\./);
  await reviewScreen(page, testInfo, 'login2fa-recovery-wrong-code');

  await recovery.fill(recoveryCodes[0] ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(onPath('/account/2fa'));
  await expect(shellUserName(page)).toContainText(user.givenName);
  await expect(page.getByRole('status').filter({ hasText: 'You logged in with a recovery code.' })).toBeVisible();
  await expect(recoverySection(page)).toContainText('9 codes left');
  await reviewScreen(page, testInfo, 'account-2fa-on', SHELL_PAGE);

  // ---- disable with the password ----
  await page.getByRole('button', { name: 'Disable' }).click();
  await page.getByLabel('Current password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Two-factor authentication is disabled.' })).toBeVisible();
  await expect(statusSection(page)).toContainText('Two-factor authentication is off');
  expect(await accounts.loginOutcome(user.email, user.password), 'the password alone logs in again').toBe('authenticated');
});

test('with only the password step done, the shell sends the visitor to /login', async ({ page, accounts }) => {
  const user = await accounts.customer('2fa-pending');
  await accounts.enableTwoFactor(user);

  await submitLogin(page, user.email, user.password);
  await expect(page).toHaveURL(onPath('/login2fa'));

  await page.goto('/dashboard');
  await expect(page).toHaveURL(onPath('/login'));
  await expect(page.getByLabel('E-mail or uid', { exact: true })).toBeVisible();
  expect((await page.request.get('/api/user')).status(), 'no user while the second factor is pending').toBe(401);
});

test('/login2fa without a pending login goes back to /login with the reason', async ({ page }) => {
  await page.goto('/login2fa');
  const code = page.getByLabel('Authentication code');
  await code.fill('123456');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(onPath('/login'));
  await expect(page.getByRole('status').filter({ hasText: /log in again/i })).toBeVisible();
});
