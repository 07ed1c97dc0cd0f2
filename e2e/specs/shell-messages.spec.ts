import type { WebSocketRoute } from '@playwright/test';
import { MESSAGE_SLIDE_MS, ROUTE_STATE_MESSAGE_MS } from '@berth/contracts';
import { test, expect } from '../support/shell-fixtures.ts';
import { navigateWithState } from '../support/shell-helpers.ts';
import { HARBOR_HOST, seedUsers } from '../support/shell-server.ts';

// docs/product.md §4, §7 and §8: messages (route state, failures, realtime notifications) and the
// realtime channels.

test('a route-state message shows for 10 s, then slides away; a reload does not bring it back', async ({ page, openAs }) => {
  await page.clock.install();
  await openAs(seedUsers.petr, '/dashboard', HARBOR_HOST);
  await navigateWithState(page, '/account', { message: 'passwordPage.done' });
  await expect(page).toHaveURL((url) => url.pathname === '/account');

  const message = page.getByTestId('shell-message');
  // An i18n key, shown translated.
  await expect(message).toHaveText('Your password has been changed.');
  await expect(message).toHaveAttribute('data-type', 'notice');
  await expect(message).toHaveRole('status');

  await page.clock.runFor(ROUTE_STATE_MESSAGE_MS - 1_000);
  await expect(message).toBeVisible();
  await page.clock.runFor(1_000 + MESSAGE_SLIDE_MS + 100);
  await expect(message).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(message).toHaveCount(0);
});

test('a click dismisses a message with a 400 ms slide', async ({ page, openAs }) => {
  await openAs(seedUsers.petr, '/dashboard', HARBOR_HOST);
  await navigateWithState(page, '/account', { notice: 'We have sent you a code.' });
  const message = page.getByTestId('shell-message');
  await expect(message).toHaveText('We have sent you a code.');
  await expect(message).toHaveCSS('transition-duration', `${MESSAGE_SLIDE_MS / 1000}s`);

  await message.click();
  await expect(message).toHaveCount(0);
});

test('the loading indicator stands in for the messages while a page loads', async ({ page, openAs }) => {
  await openAs(seedUsers.petr, '/dashboard', HARBOR_HOST);
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/admin/assets/AccountPage-*.js', async (route) => {
    await gate;
    await route.continue();
  });

  await navigateWithState(page, '/account', { message: 'Welcome back!' });
  await expect(page.getByTestId('shell-messages-loading')).toBeVisible();
  await expect(page.getByTestId('shell-messages-loading')).toHaveText('Loading…');
  await expect(page.getByTestId('shell-message')).toHaveCount(0);

  release();
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  await expect(page.getByTestId('shell-messages-loading')).toHaveCount(0);
  await expect(page.getByTestId('shell-message')).toHaveText('Welcome back!');
});

test.describe('when a call fails', () => {
  test.use({ allowedConsoleErrors: [/status of 503 \(Service Unavailable\)/] });

  test('a failed language change shows as an error message; nothing switches', async ({ page, openAs }) => {
    await openAs(seedUsers.petr, '/dashboard', HARBOR_HOST);
    await page.route('**/api/user/language', (route) => route.fulfill({ status: 503, json: { message: 'Try again in a minute.' } }));
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-de').click();
    const message = page.getByTestId('shell-message');
    await expect(message).toHaveText('The language could not be changed. Try again in a minute.');
    await expect(message).toHaveAttribute('data-type', 'error');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toBeVisible();
  });

  test('a failed logout shows as an error message and the user stays', async ({ page, openAs }) => {
    await openAs(seedUsers.petr, '/dashboard', HARBOR_HOST);
    await page.route('**/api/logout', (route) =>
      route.fulfill({ status: 503, json: { message: 'The panel is being updated. Try again in a minute.' } }),
    );
    await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click();
    const message = page.getByTestId('shell-message');
    await expect(message).toHaveText('Logging out failed: The panel is being updated. Try again in a minute.');
    await expect(message).toHaveAttribute('data-type', 'error');
    await expect(message).toHaveRole('alert');
    await expect(page).toHaveURL((url) => url.pathname === '/dashboard');

    // Errors stay until dismissed.
    await page.waitForTimeout(ROUTE_STATE_MESSAGE_MS / 5);
    await expect(message).toBeVisible();
    await message.getByRole('button', { name: 'Dismiss' }).click();
    await expect(message).toHaveCount(0);

    await page.unroute('**/api/logout');
    await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/login');
  });
});

interface Connection {
  route: WebSocketRoute;
  server: WebSocketRoute;
  fromPage: string[];
  fromServer: string[];
}

test('realtime: subscribes on every connect; notifications show and reload the user, cart updates refetch the cart', async ({
  page,
  openAs,
}) => {
  // A proxy between the page and the real server: it sees every frame and can add the server's events.
  const connections: Connection[] = [];
  await page.routeWebSocket(/\/socket\.io\//, (route) => {
    const server = route.connectToServer();
    const connection: Connection = { route, server, fromPage: [], fromServer: [] };
    connections.push(connection);
    route.onMessage((frame) => {
      connection.fromPage.push(String(frame));
      server.send(frame);
    });
    server.onMessage((frame) => {
      connection.fromServer.push(String(frame));
      route.send(frame);
    });
  });

  await openAs(seedUsers.superAdmin);
  const { id } = await page.evaluate(
    async () => ((await (await fetch('/api/user')).json()) as { data: { user: { id: number } } }).data.user,
  );
  const subscriptions = (connection: Connection | undefined) =>
    (connection?.fromPage ?? []).filter((frame) => frame.includes('"subscribe"')).map((frame) => frame.replace(/^42\d*/, ''));
  const channels = [`["subscribe","private-user.${id}.notifications"]`, `["subscribe","private-user.${id}.cart"]`];

  await expect.poll(() => subscriptions(connections[0])).toEqual(channels);
  // The server accepts both (acks are `43<id>[{"ok":true}]`).
  await expect.poll(() => connections[0]?.fromServer.filter((frame) => /^43\d+\[\{"ok":true\}\]$/.test(frame)).length).toBe(2);

  const first = connections[0] as Connection;
  const userReload = page.waitForRequest((request) => request.url().endsWith('/api/user'));
  first.route.send('42["notification",{"type":"warning","text":"anchor-studio.com expires in 7 days."}]');
  const message = page.getByTestId('shell-message');
  await expect(message).toHaveText('anchor-studio.com expires in 7 days.');
  await expect(message).toHaveAttribute('data-type', 'warning');
  await userReload;

  const cartReload = page.waitForRequest((request) => request.url().endsWith('/api/cart'));
  first.route.send('42["cart-updated",{}]');
  await cartReload;

  // A server restart drops the connection: socket.io reconnects and subscribes again.
  await first.server.close();
  await first.route.close({ code: 1012, reason: 'Service Restart' });
  await expect.poll(() => subscriptions(connections[1]), { timeout: 15_000 }).toEqual(channels);
  await expect.poll(() => connections[1]?.fromServer.filter((frame) => /^43\d+\[\{"ok":true\}\]$/.test(frame)).length).toBe(2);
});
