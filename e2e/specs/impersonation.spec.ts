import { test, expect } from '../support/fixtures.ts';
import { uniqueToken } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';
import { signIn } from '../support/shell-session.ts';

// "log in as customer" (POST /api/system/customers/{id}/impersonate) from the customer's
// page, the banner while it lasts (GET /api/user's `impersonator`), and the way back
// (POST /api/impersonation/stop) to the admin's own account and the customers list.

const DAY_MS = 24 * 60 * 60 * 1000;
const SHELL_PAGE = { include: 'main' };

test("a host admin logs in as a customer, sees the customer's domains under a banner, and returns", async ({
  page,
  accounts,
  berth,
  baseURL,
}, testInfo) => {
  const admin = await accounts.hostAdmin('impersonating-admin');
  const customer = await accounts.customer('impersonated');
  const name = `e2e-as-${uniqueToken()}.test`;
  const api = await accounts.signedIn(berth.admin);
  const created = await api.post('/api/host/domain', {
    data: { name, owner_id: customer.id, expire_at: new Date(Date.now() + 20 * DAY_MS).toISOString() },
  });
  expect(created.status(), await created.text()).toBe(201);

  await signIn(page.context(), baseURL as string, admin.email, admin.password);
  await page.goto(`/system/customers/${customer.id}`);
  const banner = page.getByTestId('impersonation-banner');
  await expect(page.getByRole('heading', { level: 1, name: `${customer.givenName} ${customer.surname}` })).toBeVisible();
  await expect(banner).toHaveCount(0);

  await page.getByRole('button', { name: 'Log in as customer' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/dashboard');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(`You are logged in as ${customer.givenName} ${customer.surname} (${customer.email}).`);
  await expect(banner).toContainText(`${admin.givenName} ${admin.surname}`);
  await expect(page.getByTestId('shell-user-name')).toContainText(customer.givenName);
  // The customer's own dashboard: their one domain, expiring soon.
  await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${customer.givenName} ${customer.surname}` })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Expiring soon' }).getByRole('link', { name })).toBeVisible();
  const user = (await (await page.request.get('/api/user')).json()) as {
    data: { user: { id: number; impersonator: { id: number } | null } };
  };
  expect(user.data.user.id).toBe(customer.id);
  expect(user.data.user.impersonator?.id).toBe(admin.id);
  await reviewScreen(page, testInfo, 'impersonation-banner', SHELL_PAGE);

  // The banner stays on every page of the shell.
  await page.goto('/account');
  await expect(banner).toBeVisible();

  await banner.getByRole('button', { name: 'Return to your account' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/system/customers');
  await expect(page.getByRole('heading', { level: 1, name: 'Customers' })).toBeVisible();
  await expect(banner).toHaveCount(0);
  await expect(page.getByTestId('shell-user-name')).toContainText(admin.givenName);
  const back = (await (await page.request.get('/api/user')).json()) as { data: { user: { id: number; impersonator?: unknown } } };
  expect(back.data.user.id).toBe(admin.id);
  expect(back.data.user.impersonator ?? null).toBeNull();
  await reviewScreen(page, testInfo, 'impersonation-returned', SHELL_PAGE);
});
