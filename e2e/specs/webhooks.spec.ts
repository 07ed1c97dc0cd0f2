import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { test, expect } from '../support/fixtures.ts';
import { signInPage } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';

// /system/webhooks: a tenant's admin adds an endpoint (a receiver on loopback), keeps the secret
// shown once, sends a test event and finds it delivered in the endpoint's log; the receiver checks
// the signature with the Standard Webhooks library.

test('an admin adds an endpoint, copies its secret, sends a test event and sees it delivered', async ({ page, accounts }, testInfo) => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/berth`;
  try {
    // An admin of tenant 1 (the tenant the test server is reached at); no other spec adds endpoints there.
    const admin = await accounts.hostAdmin('hooks');
    await signInPage(page, admin);
    await page.goto('/system/webhooks');
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await expect(page.getByText('No endpoints yet')).toBeVisible();

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
    await dialog.getByLabel('Address').fill('ftp://nowhere');
    await dialog.getByLabel(/^customer\.created/).check();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(dialog.getByText('Enter an http:// or https:// address without a user name or password.')).toBeVisible();
    await dialog.getByLabel('Address').fill(url);
    await dialog.getByLabel('Description').fill('Our CRM');
    await dialog.getByLabel(/^invoice\.paid/).check();
    await reviewScreen(page, testInfo, 'webhooks-add', { include: '[role=dialog]' });
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();

    const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
    const secret = (await secretDialog.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await secretDialog.getByRole('button', { name: 'Done' }).click();

    const card = page.getByTestId(/^webhook-\d+$/);
    await expect(card).toContainText(url);
    await expect(card).toContainText('customer.created');
    await card.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByText('A test event is on its way.')).toBeVisible();
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1);
    const event = new Webhook(secret).verify(received[0]!.body, {
      'webhook-id': String(received[0]!.headers['webhook-id']),
      'webhook-timestamp': String(received[0]!.headers['webhook-timestamp']),
      'webhook-signature': String(received[0]!.headers['webhook-signature']),
    }) as { type: string; tenant_id: number };
    expect(event).toMatchObject({ type: 'webhook.test', tenant_id: 1 });

    await card.getByRole('button', { name: 'Deliveries' }).click();
    const log = card.getByTestId('webhook-deliveries');
    await expect(log.getByRole('row').filter({ hasText: 'webhook.test' })).toContainText('200');
    await expect(log).toContainText('Attempt 1');
    await reviewScreen(page, testInfo, 'webhooks', { include: 'main' });
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});
