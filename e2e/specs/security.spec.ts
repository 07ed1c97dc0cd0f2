import { generate } from 'otplib';
import { test, expect } from '../support/fixtures.ts';
import { signedInApi, signInPage } from '../support/accounts.ts';
import { onPath, submitLogin } from '../support/login.ts';
import { reviewScreen } from '../support/review.ts';

// /system/security (GET/PATCH /api/system/security): a host admin requires two-factor
// authentication of the tenant's customers; a customer without it is then held at /account/2fa
// after login, sets it up there with a real TOTP code, and only then reaches the panel.

const MAIN = { include: 'main' };

test("a host admin requires a second factor of the tenant's customers; a customer sets it up before anything else", async ({
  page,
  accounts,
  berth,
}, testInfo) => {
  test.slow();
  const admin = await accounts.hostAdmin('security-admin');
  const customer = await accounts.customer('security-customer');
  await signInPage(page, admin);
  await page.goto('/system/security');
  await expect(page.getByRole('heading', { level: 1, name: 'Security' })).toBeVisible({ timeout: 30_000 });
  const customersRule = page.getByRole('switch', { name: 'Require two-factor authentication of my customers' });
  await expect(customersRule).not.toBeChecked();
  // Only super admins decide for every admin.
  await expect(page.getByRole('switch', { name: 'Require two-factor authentication of all admins' })).toHaveCount(0);
  try {
    // The switch shows the saved rule: it turns once the server has stored it.
    await customersRule.click();
    await expect(page.getByRole('status').filter({ hasText: 'Security settings saved.' })).toBeVisible();
    await expect(customersRule).toBeChecked();
    await reviewScreen(page, testInfo, 'security-settings', MAIN);
    await page.context().clearCookies();

    // ---- the customer: held at /account/2fa ----
    await submitLogin(page, customer.email, customer.password);
    await expect(page).toHaveURL(onPath('/account/2fa'));
    await expect(page.getByRole('status').filter({ hasText: 'Two-factor authentication is required' })).toBeVisible();
    await expect(page.getByRole('navigation')).toHaveCount(0);
    await reviewScreen(page, testInfo, 'security-enrollment');
    await page.goto('/host/domain');
    await expect(page).toHaveURL(onPath('/account/2fa'));

    await page.getByLabel('Current password', { exact: true }).fill(customer.password);
    await page.getByRole('button', { name: 'Enable two-factor authentication' }).click();
    const secret = (await page.getByTestId('twofactor-secret').innerText()).replace(/\s+/g, '');
    await page.getByLabel('Authentication code').fill(await generate({ secret }));
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    // The recovery codes stay on screen until saved, although the rule is met by now.
    await expect(page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem')).toHaveCount(10);
    await page.getByRole('checkbox', { name: 'I have saved these codes' }).check();
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page).toHaveURL(onPath('/dashboard'));
    await expect(page.getByRole('navigation').first()).toBeVisible();
  } finally {
    const api = await signedInApi(berth.baseURL, admin);
    await api.patch('/api/system/security', { data: { require_2fa_customers: false } });
    await api.dispose();
  }
});
