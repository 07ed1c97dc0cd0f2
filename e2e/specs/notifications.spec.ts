import { test, expect } from '../support/fixtures.ts';
import { reviewScreen } from '../support/review.ts';
import { signIn } from '../support/shell-session.ts';

// /notifications (GET /api/notifications). Notifications are written only by the daily
// expiry job, which no HTTP call starts and whose first run a test cannot time, so this spec
// shows a fresh customer's empty list; reading, marking read and paging are covered by the API
// tests (server/src/modules/notifications/notifications.api.test.ts), which run the real job.

const SHELL_PAGE = { include: 'main' };

test('a customer without notifications sees the empty list, reached from the dashboard', async ({ page, accounts, baseURL }, testInfo) => {
  const customer = await accounts.customer('no-news');
  await signIn(page.context(), baseURL as string, customer.email, customer.password);
  await page.goto('/dashboard');
  const card = page.getByRole('region', { name: 'Key numbers' }).getByRole('link').filter({ hasText: 'Unread notifications' });
  await expect(card).toContainText('You are all caught up');
  await card.click();

  await expect(page).toHaveURL((url) => url.pathname === '/notifications');
  await expect(page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await expect(page.getByText('No notifications', { exact: true })).toBeVisible();
  await expect(page.getByTestId('notifications-unread')).toHaveText('0 unread');
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
  await reviewScreen(page, testInfo, 'notifications-empty', SHELL_PAGE);
});
