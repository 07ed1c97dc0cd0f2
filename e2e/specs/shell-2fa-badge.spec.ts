import { generate } from 'otplib';
import { nextTotpEpoch } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';
import { test, expect } from '../support/shell-fixtures.ts';
import { HARBOR_HOST, ownUser, seedUsers } from '../support/shell-server.ts';

// docs/product.md §4: the 2FA badge shows while 2FA is off and the google2fa notification is not
// viewed; closing the profile dropdown while it shows marks it viewed.

test('closing the profile dropdown marks the 2FA reminder viewed, also after a reload', async ({ page, openAs }, testInfo) => {
  await openAs(ownUser('badge', testInfo.project.name), '/dashboard', HARBOR_HOST);
  const profile = page.getByTestId('profile-menu');
  await expect(page.getByTestId('twofa-badge')).toBeVisible();
  await expect(profile).toHaveAccessibleName(/Two-factor authentication is off/);

  await profile.click();
  const item = page.getByRole('menuitem', { name: /Two-factor authentication/ });
  await expect(item.getByTestId('twofa-badge-item')).toHaveText('Off');
  // Still showing while the dropdown is open: only closing it counts as "viewed".
  await expect(page.getByTestId('twofa-badge')).toBeVisible();

  const viewed = page.waitForResponse(
    (response) => response.url().endsWith('/api/user/notification-viewed') && response.request().method() === 'PATCH',
  );
  await page.keyboard.press('Escape');
  const answer = await viewed;
  expect(answer.status()).toBe(200);
  expect(answer.request().postDataJSON()).toEqual({ notification: 'google2fa' });
  await expect(page.getByTestId('twofa-badge')).toHaveCount(0);
  await expect(profile).not.toHaveAccessibleName(/Two-factor authentication is off/);

  await page.reload();
  await expect(page.getByTestId('shell-user-name')).toBeAttached();
  await expect(page.getByTestId('twofa-badge')).toHaveCount(0);
  await profile.click();
  await expect(page.getByRole('menuitem', { name: /Two-factor authentication/ })).toBeVisible();
  await expect(page.getByTestId('twofa-badge-item')).toHaveCount(0);
});

test('no 2FA badge once the reminder was viewed', async ({ page, openAs }) => {
  await openAs(seedUsers.petr, '/dashboard', HARBOR_HOST);
  await expect(page.getByTestId('profile-menu')).toBeVisible();
  await expect(page.getByTestId('twofa-badge')).toHaveCount(0);
});

test('no 2FA badge for a user who signed in with a TOTP code', async ({ page, accounts, baseURL }, testInfo) => {
  // A customer of the worker's own server (not a seeded one) with 2FA on and the reminder never
  // viewed: only google2fa_enabled keeps the badge away.
  const customer = await accounts.customer('twofa-badge');
  const { secret } = await accounts.enableTwoFactor(customer);
  const login = await page.request.post('/api/login', { data: { email: customer.email, password: customer.password, remember: false } });
  expect(((await login.json()) as { data: { status: string } }).data.status).toBe('two_factor_required');
  // enableTwoFactor spent this step's code: the next step's is fresh.
  const code = await generate({ secret, epoch: nextTotpEpoch() });
  expect((await page.request.post('/api/login2fa', { data: { code } })).status(), 'POST /api/login2fa').toBe(200);
  const { user } = (
    (await (await page.request.get('/api/user')).json()) as {
      data: { user: { google2fa_enabled: boolean; notifications_viewed: string[] } };
    }
  ).data;
  expect(user).toMatchObject({ google2fa_enabled: true, notifications_viewed: [] });

  let patched = false;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/user/notification-viewed')) patched = true;
  });
  await page.goto(`${baseURL}/dashboard`);
  const profile = page.getByTestId('profile-menu');
  await expect(page.getByTestId('shell-user-name')).toHaveText(`${customer.givenName} ${customer.surname}`);
  await expect(page.getByTestId('twofa-badge')).toHaveCount(0);
  await expect(profile).not.toHaveAccessibleName(/Two-factor authentication is off/);
  await reviewScreen(page, testInfo, 'shell-2fa-on');

  await profile.click();
  await expect(page.getByRole('menuitem', { name: /Two-factor authentication/ })).toBeVisible();
  await expect(page.getByTestId('twofa-badge-item')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
  // Nothing to mark as viewed: the server still has no google2fa entry.
  expect(patched, 'no PATCH /api/user/notification-viewed').toBe(false);
  const after = ((await (await page.request.get('/api/user')).json()) as { data: { user: { notifications_viewed: string[] } } }).data.user;
  expect(after.notifications_viewed).toEqual([]);
});
