import { test, expect } from '../support/shell-fixtures.ts';
import { HARBOR_HOST, ownUser, seedUsers } from '../support/shell-server.ts';

// SPEC.md section 4: the 2FA badge shows while 2FA is off and the google2fa notification is not
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

test('no 2FA badge when 2FA is on', async ({ page, openAs }) => {
  // A user with 2FA needs a TOTP code to sign in; the answer of GET /api/user stands in for one.
  await page.route('**/api/user', async (route) => {
    const answer = await route.fetch();
    const body = (await answer.json()) as { data: { user: { google2fa_enabled: boolean; notifications_viewed: string[] } } };
    body.data.user.google2fa_enabled = true;
    body.data.user.notifications_viewed = [];
    await route.fulfill({ response: answer, json: body });
  });
  let patched = false;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/user/notification-viewed')) patched = true;
  });
  // route.fetch() resolves names in Node, which knows no *.localhost: tenant 1 at the loopback address.
  await openAs(seedUsers.superAdmin);
  await expect(page.getByTestId('profile-menu')).toBeVisible();
  await expect(page.getByTestId('twofa-badge')).toHaveCount(0);
  await page.getByTestId('profile-menu').click();
  await expect(page.getByRole('menu')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
  expect(patched, 'nothing to mark as viewed').toBe(false);
});
