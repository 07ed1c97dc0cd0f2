import { test, expect } from '../support/fixtures.ts';
import { onPath, shellUserName } from '../support/login.ts';
import { linkWithPath, sixDigitCode } from '../support/mailbox.ts';
import { reviewScreen } from '../support/review.ts';
import { partnerTenant, superAdmin } from '../support/shop.ts';

// docs/product.md §2: /password/otp and /password/otplogin; section 4: a successful request
// redirects to /password/otplogin carrying the notice and uniq_id; section 5: the code field
// holds 6 characters; section 7: POST /password/otp and POST /password/otplogin.

const OTP_SUBJECT = /one-time login code/i;

test('the mailed one-time code, typed in, logs in', async ({ page, accounts, mailbox }, testInfo) => {
  const user = await accounts.customer('otp');

  await page.goto('/login');
  await page.getByRole('link', { name: 'Log in with a one-time code' }).click();
  await expect(page).toHaveURL(onPath('/password/otp'));
  await expect(page.getByRole('heading', { level: 1, name: 'Log in with a one-time code' })).toBeVisible();
  await reviewScreen(page, testInfo, 'password-otp');

  await page.getByLabel('E-mail', { exact: true }).fill(user.email);
  await page.getByRole('button', { name: 'Send code' }).click();

  await expect(page).toHaveURL(onPath('/password/otplogin'));
  await expect(page.getByRole('heading', { level: 1, name: 'Enter your one-time code' })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: 'we have sent a one-time login code' }),
    'the notice of the request is carried over',
  ).toBeVisible();

  const code = sixDigitCode(await mailbox.waitFor({ to: user.email, subject: OTP_SUBJECT }));
  const field = page.getByLabel('One-time code');
  await expect(field).toBeFocused();

  // A wrong code first: the server's error shows under the field.
  await field.fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(/The code is not valid or has expired\./);
  await reviewScreen(page, testInfo, 'password-otplogin-wrong-code');

  // The field takes 6 characters: the 7th and 8th typed digits are dropped.
  await field.clear();
  await field.pressSequentially(`${code}97`);
  await expect(field).toHaveValue(code);
  await reviewScreen(page, testInfo, 'password-otplogin');
  await page.getByRole('button', { name: 'Log in', exact: true }).click();

  await expect(page).toHaveURL(onPath('/dashboard'));
  await expect(shellUserName(page)).toContainText(user.givenName);
});

test("the mail's one-click link submits by itself and logs in", async ({ page, accounts, mailbox }) => {
  const user = await accounts.customer('otp-link');

  await page.goto('/password/otp');
  await page.getByLabel('E-mail', { exact: true }).fill(user.email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page).toHaveURL(onPath('/password/otplogin'));

  const mail = await mailbox.waitFor({ to: user.email, subject: OTP_SUBJECT });
  const link = linkWithPath(mail, '/password/otplogin');
  const query = new URL(link, 'http://x').searchParams;
  expect(query.get('uniq_id'), 'the link carries the request id').toBeTruthy();
  expect(query.get('otp'), 'the link carries the mailed code').toBe(sixDigitCode(mail));

  // A fresh browser context, as when the mail is opened elsewhere: nothing in navigation state.
  await page.context().clearCookies();
  const autosubmit = page.waitForRequest(
    (request) => request.method() === 'POST' && new URL(request.url()).pathname === '/api/password/otplogin',
  );
  await page.goto(link);
  expect((await autosubmit).postDataJSON(), 'submitted by itself, flagged as such').toMatchObject({
    uniq_id: query.get('uniq_id'),
    otp: query.get('otp'),
    autosubmit: true,
  });
  await expect(page).toHaveURL(onPath('/dashboard'));
  await expect(shellUserName(page)).toContainText(user.givenName);
});

test('/password/otplogin without a request says so and links to a new one', async ({ page }, testInfo) => {
  await page.goto('/password/otplogin');
  const alert = page.getByRole('alert').filter({ hasText: 'No code was requested' });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('link', { name: 'Request a new code' })).toHaveAttribute('href', '/password/otp');
  await reviewScreen(page, testInfo, 'password-otplogin-no-request');
});

test('on a tenant that does not offer one-time codes, their addresses lead to the login screen', async ({ page, accounts, berth }) => {
  const partner = await partnerTenant(await superAdmin(accounts, berth.admin), berth.baseURL);
  for (const path of ['/password/otp', '/password/otplogin?uniq_id=x']) {
    await page.goto(`${partner.origin}${path}`);
    await expect(page).toHaveURL(`${partner.origin}/login`);
    await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Log in with a one-time code' })).toHaveCount(0);
  }
});
