import { reviewScreen } from '../support/review.ts';
import { test, expect, signInPage, watchRealtime } from '../support/shell-realtime.ts';

// docs/product.md §7: the user's private channels reach the browser whichever instance
// sends (socket.io Redis adapter), work in-process without Redis, and come back by themselves
// after a server restart. The events come from a real path: the expiry reminders, which every
// instance runs 5 s after it starts and which notify the domain's owner on their channel.

const EXPIRY_TEXT = /^The domain e2e-rt-[0-9a-f]+\.test expires on \d{1,2} \w+ \d{4}\. Renew it in time to keep it\.$/;

test('a notification sent by another instance reaches the page through Redis', async ({ page, deployment }, testInfo) => {
  test.setTimeout(120_000);
  const first = await deployment.start({ redis: true });
  const customer = await deployment.accounts().customer('realtime');
  const realtime = watchRealtime(page);
  await signInPage(page, first.baseURL, customer);
  await page.goto(`${first.baseURL}/dashboard`);
  await expect(page.getByTestId('shell-user-name')).toBeAttached();
  await expect.poll(() => realtime.subscribed()).toBe(1);

  // The reminder must come from the second instance: the first one's own run is over before the
  // domain exists, and the second one starts (and runs 5 s later) after it does.
  await deployment.afterFirstExpiryRun(first);
  const domain = await deployment.expiringDomain(first, customer);
  const userReload = page.waitForRequest((request) => request.url() === `${first.baseURL}/api/user`, { timeout: 30_000 });
  const second = await deployment.start({ redis: true });

  const message = page.getByTestId('shell-message').filter({ hasText: domain });
  await expect(message).toHaveText(EXPIRY_TEXT, { timeout: 20_000 });
  await expect(message).toHaveAttribute('data-type', 'warning');
  await userReload;
  // It logs the run once the mail is out too, a moment after the event.
  await expect.poll(() => second.output(), { message: 'the second instance sent the reminder' }).toContain('"msg":"expiry reminders sent"');
  expect(first.output(), 'the first instance only passed it on').not.toContain('"msg":"expiry reminders sent"');
  // The page kept its one connection to the first instance.
  expect(realtime.opened()).toBe(1);
  await reviewScreen(page, testInfo, 'realtime-notification-from-another-instance');

  await message.click();
  await expect(message).toHaveCount(0);
});

test.describe('a page still connecting', () => {
  // The refused connection attempts are logged by the browser.
  test.use({ allowedConsoleErrors: [/WebSocket connection to '.*\/socket\.io\/.*' failed|net::ERR_FAILED/] });

  test('counts on the bell a notification sent after it read its data and before it subscribed', async ({ page, deployment }) => {
    test.setTimeout(120_000);
    const first = await deployment.start({ redis: true });
    const customer = await deployment.accounts().customer('catch-up');
    // As on a slow phone: the page shows its data seconds before its socket is subscribed. Here
    // the socket (WebSocket or polling) is refused until the reminder has gone out.
    let refused = true;
    await page.route(/\/socket\.io\//, (route) => (refused ? route.abort() : route.continue()));
    await page.routeWebSocket(/\/socket\.io\//, async (route) => {
      if (refused) return route.close({ code: 1011, reason: 'not yet' });
      const server = route.connectToServer();
      route.onMessage((frame) => server.send(frame));
      server.onMessage((frame) => route.send(frame));
    });
    const realtime = watchRealtime(page);
    await signInPage(page, first.baseURL, customer);
    await deployment.afterFirstExpiryRun(first);
    const domain = await deployment.expiringDomain(first, customer);
    await page.goto(`${first.baseURL}/dashboard`);
    const bell = page.getByTestId('notification-bell');
    await expect(bell).toHaveAccessibleName('Notifications, none unread');

    // The second instance's first expiry run reminds the owner; its event finds no subscriber.
    const second = await deployment.start({ redis: true });
    await expect.poll(() => second.output(), { timeout: 20_000 }).toContain('"msg":"expiry reminders sent"');
    await expect(page.getByTestId('shell-message').filter({ hasText: domain })).toHaveCount(0);

    refused = false;
    await expect.poll(() => realtime.subscribed(), { message: 'the next attempt connects', timeout: 15_000 }).toBe(1);
    await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
    await expect(page.getByRole('region', { name: 'Key numbers' }).getByRole('link', { name: /Unread notifications/ })).toHaveText(
      /^Unread notifications\s*1(\D|$)/,
    );
  });
});

test.describe('a server restart', () => {
  // While the server is down the browser logs its failed reconnection attempts. (One pattern: an
  // array of two would read as Playwright's [value, options] fixture tuple.)
  test.use({ allowedConsoleErrors: [/WebSocket connection to '.*\/socket\.io\/.*' failed|net::ERR_CONNECTION_REFUSED/] });

  test('the page reconnects without a reload and gets what the restarted server sends in-process (no Redis)', async ({
    page,
    deployment,
  }) => {
    test.setTimeout(120_000);
    const server = await deployment.start({ redis: false });
    const customer = await deployment.accounts().customer('restart');
    const realtime = watchRealtime(page);
    await signInPage(page, server.baseURL, customer);
    await page.goto(`${server.baseURL}/dashboard`);
    await expect(page.getByTestId('shell-user-name')).toBeAttached();
    await expect.poll(() => realtime.subscribed()).toBe(1);
    // Survives only if the page is never reloaded.
    await page.evaluate(() => Object.assign(window, { e2eBeforeRestart: 'still here' }));

    await deployment.afterFirstExpiryRun(server);
    await server.stop();
    await expect.poll(() => realtime.open(), { message: 'the socket closed with the server' }).toBe(0);

    const restarted = await deployment.start({ redis: false, port: server.port });
    // Made before the restarted server's first expiry run, which then notifies the owner.
    const domain = await deployment.expiringDomain(restarted, customer);
    // A new connection (the old one closed with the server) with both channels accepted again.
    await expect.poll(() => realtime.subscribed(), { message: 'reconnected and subscribed again', timeout: 10_000 }).toBe(1);

    const message = page.getByTestId('shell-message').filter({ hasText: domain });
    await expect(message).toHaveText(EXPIRY_TEXT, { timeout: 20_000 });
    await expect.poll(() => restarted.output(), { message: 'the restarted server sent it' }).toContain('"msg":"expiry reminders sent"');
    expect(await page.evaluate(() => (window as { e2eBeforeRestart?: string }).e2eBeforeRestart)).toBe('still here');
    await expect(page.getByTestId('shell-user-name')).toHaveText(`${customer.givenName} ${customer.surname}`);
  });
});
