import { signedInApi } from '../support/accounts.ts';
import { test, expect } from '../support/fixtures.ts';
import { reviewScreen } from '../support/review.ts';
import { setBankAccount } from '../support/shop.ts';
import { signIn } from '../support/shell-session.ts';

// /notifications (GET /api/notifications) and the header's bell. The expiry job's reminders,
// reading, marking read and paging are covered by the API tests
// (server/src/modules/notifications/notifications.api.test.ts), which run the real job.

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

test('a payment confirmed while the customer was away is waiting in the bell and on /notifications', async ({
  page,
  accounts,
  baseURL,
  berth,
}, testInfo) => {
  const origin = baseURL as string;
  const customer = await accounts.customer('away');
  const admin = await signedInApi(origin, berth.admin);
  await setBankAccount(admin, 1);
  // The customer orders credit by bank transfer and signs out; the operator confirms the payment.
  const buyer = await signedInApi(origin, customer);
  const topUp = await buyer.post('/api/credit/top-up', { data: { amount: 50_00, payment: 'bank_transfer' } });
  expect(topUp.status(), await topUp.text()).toBe(201);
  const invoice = ((await topUp.json()) as { data: { invoice: { id: number; number: string } } }).data.invoice;
  await buyer.post('/api/logout');
  const paid = await admin.post(`/api/system/invoices/${invoice.id}/mark-paid`, { data: { reference: 'E2E-AWAY' } });
  expect(paid.status(), await paid.text()).toBe(200);

  await signIn(page.context(), origin, customer.email, customer.password);
  await page.goto('/dashboard');
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await expect(page.getByTestId('notification-count')).toHaveText('1');
  await bell.click();
  await expect(page).toHaveURL((url) => url.pathname === '/notifications');
  await expect(page.getByTestId('notifications-unread')).toHaveText('1 unread');
  await expect(page.getByRole('main')).toContainText(`invoice ${invoice.number} has been paid`);
  await reviewScreen(page, testInfo, 'notifications-paid-while-away', SHELL_PAGE);
  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(page.getByTestId('notifications-unread')).toHaveText('0 unread');
  await expect(bell).toHaveAccessibleName('Notifications, none unread');
  await expect(page.getByTestId('notification-count')).toHaveCount(0);
  await admin.dispose();
  await buyer.dispose();
});
