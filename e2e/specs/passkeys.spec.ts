import { generate } from 'otplib';
import { test, expect } from '../support/fixtures.ts';
import { nextTotpEpoch } from '../support/accounts.ts';
import { loginForm, onPath, shellUserName } from '../support/login.ts';
import { reviewScreen } from '../support/review.ts';

// Passkeys with Chromium's virtual authenticator (CDP WebAuthn domain): a customer with TOTP adds a
// passkey on /account/2fa, logs in with it and is not asked for a code, and removes it with the
// password. WebAuthn needs a domain as relying party, so these pages are opened on `localhost`
// (the operator tenant's host like any unknown name) rather than 127.0.0.1.

const SHELL_PAGE = { include: 'main' };

test('a customer adds a passkey, logs in with it without a TOTP code or uses it as the second step, and removes it', async ({
  page,
  accounts,
  berth,
  mailbox,
}, testInfo) => {
  test.slow();
  const user = await accounts.customer('passkey');
  const { secret } = await accounts.enableTwoFactor(user);
  const origin = berth.baseURL.replace('127.0.0.1', 'localhost');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  // ---- password and TOTP, then add a passkey ----
  await page.goto(`${origin}/login`);
  const form = loginForm(page);
  await form.email.fill(user.email);
  await form.password.fill(user.password);
  await form.submit.click();
  await expect(page).toHaveURL(onPath('/login2fa'));
  await page.getByLabel('Authentication code').fill(await generate({ secret, epoch: nextTotpEpoch() }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(shellUserName(page)).toContainText(user.givenName);

  await page.goto(`${origin}/account/2fa`);
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section).toContainText('No passkeys yet.', { timeout: 30_000 });
  await section.getByLabel('Name of the new passkey').fill('This laptop');
  await section.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The passkey has been added.' })).toBeVisible();
  const row = section.getByTestId('passkey-row').filter({ hasText: 'This laptop' });
  await expect(row).toContainText('not used yet');
  await section.scrollIntoViewIfNeeded();
  await reviewScreen(page, testInfo, 'passkeys-added', SHELL_PAGE);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.isResidentCredential, 'a discoverable credential').toBe(true);
  await expect
    .poll(() => mailbox.all().some((mail) => mail.to.includes(user.email) && /A passkey was added/.test(mail.subject)))
    .toBe(true);

  // ---- log out, and in from the autofill: the browser offers the passkey as the screen opens ----
  // (Chromium's virtual authenticator answers the waiting autofill request at once.)
  expect((await page.request.post(`${origin}/api/logout`)).status()).toBe(200);
  await page.goto(`${origin}/login`);
  await expect(page).toHaveURL(onPath('/dashboard'));
  await expect(shellUserName(page)).toContainText(user.givenName);

  // ---- a browser without passkey autofill: the button, with no password and no TOTP ----
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
  });
  expect((await page.request.post(`${origin}/api/logout`)).status()).toBe(200);
  await page.goto(`${origin}/login`);
  await expect(form.email).toHaveAttribute('autocomplete', 'username webauthn');
  await reviewScreen(page, testInfo, 'login-with-passkey');
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page).toHaveURL(onPath('/dashboard'));
  await expect(shellUserName(page)).toContainText(user.givenName);

  // ---- or as the second step after the password, instead of the code ----
  expect((await page.request.post(`${origin}/api/logout`)).status()).toBe(200);
  await page.goto(`${origin}/login`);
  await form.email.fill(user.email);
  await form.password.fill(user.password);
  await form.submit.click();
  await expect(page).toHaveURL(onPath('/login2fa'));
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expect(page).toHaveURL(onPath('/dashboard'));

  // ---- remove it, with the password ----
  await page.goto(`${origin}/account/2fa`);
  await expect(row).toContainText('last used');
  await row.getByRole('button', { name: 'Remove the passkey This laptop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove this passkey?' });
  await dialog.getByLabel('Current password', { exact: true }).fill(user.password);
  await reviewScreen(page, testInfo, 'passkeys-remove', { include: '[role="dialog"]' });
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The passkey has been removed.' })).toBeVisible();
  await expect(section).toContainText('No passkeys yet.');
});
