import { test, expect } from '../support/fixtures.ts';
import { signInPage } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';

// /system/jobs (super admins): the durable queue. A forgot-password request is two jobs — the
// account lookup and its mail — and both are listed as done, named by the address they were for.

test('the super admin finds a password reset and its mail among the done jobs, by the address', async ({
  page,
  accounts,
  mailbox,
  berth,
}, testInfo) => {
  const user = await accounts.customer('jobs');
  const forgot = await page.request.post('/api/password/forgot', { data: { email: user.email } });
  expect(forgot.status()).toBe(200);
  await mailbox.waitFor({ to: user.email, subject: /reset/i });

  await signInPage(page, berth.admin);
  await page.goto('/system/jobs');
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  // The side menu (in a drawer on a phone) marks the page.
  if (testInfo.project.name === 'desktop') {
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Jobs' })).toHaveAttribute('aria-current', 'page');
  }
  const filter = page.getByRole('combobox', { name: 'Show jobs' });
  await expect(filter.locator('option', { hasText: /^Done \(\d+\)$/ })).toHaveCount(1);
  await filter.selectOption('done');
  const table = page.getByTestId('jobs-table');
  const reset = table.getByRole('row').filter({ hasText: 'Password reset' }).filter({ hasText: user.email });
  const mail = table.getByRole('row').filter({ hasText: /^Mail/ }).filter({ hasText: user.email });
  await expect(reset).toContainText('Done');
  await expect(mail).toContainText('Done');
  await expect(mail).toContainText('1 of 9');
  // A job's data is never shown: the reset link is a credential.
  await expect(page.getByText('/password/reset/')).toHaveCount(0);
  await reviewScreen(page, testInfo, 'jobs', { include: 'main' });
});
