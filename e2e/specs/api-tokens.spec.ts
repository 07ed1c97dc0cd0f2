import { request } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { signInPage } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';

// /account/api-tokens (GET/POST /account/api-tokens, DELETE .../{id}): a customer makes a token
// with DNS scopes, copies it from the one screen that shows it, a script uses it, then it is
// revoked and refused.

const MAIN = { include: 'main' };
const DIALOG = { include: '[role="dialog"]' };

test('a customer creates an API token, a script uses it within its scopes, and revoking it stops it', async ({
  page,
  accounts,
  berth,
}, testInfo) => {
  const owner = await accounts.customer('tokens');
  const domain = await accounts.domain(owner);
  await signInPage(page, owner);
  await page.goto('/account/api-tokens');
  await expect(page.getByRole('heading', { level: 1, name: 'API tokens' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('No tokens yet')).toBeVisible();
  await reviewScreen(page, testInfo, 'api-tokens-empty', MAIN);

  await page.getByRole('button', { name: 'New token' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API token' });
  // A customer is offered no access to customers.
  await expect(dialog.getByRole('checkbox', { name: 'Read: Customers' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await expect(dialog.getByText('Choose at least one scope.')).toBeVisible();
  await dialog.getByLabel('Name').fill('Deploy script');
  await dialog.getByRole('checkbox', { name: 'Read: DNS records' }).check();
  await dialog.getByRole('checkbox', { name: 'Write: DNS records' }).check();
  await dialog.getByLabel('Expires').selectOption('30');
  await reviewScreen(page, testInfo, 'api-tokens-form', DIALOG);
  await dialog.getByRole('button', { name: 'Create token' }).click();

  const shown = page.getByRole('dialog', { name: 'Your new token' });
  const token = (await shown.getByTestId('new-api-token').innerText()).trim();
  expect(token).toMatch(/^berth_[A-Za-z0-9_-]{43}$/);
  await reviewScreen(page, testInfo, 'api-tokens-created', DIALOG);
  await shown.getByRole('button', { name: 'I have copied it' }).click();
  const row = page.getByTestId('api-token-row').filter({ hasText: 'Deploy script' });
  await expect(row).toContainText('dns:read');
  await expect(row).toContainText('Never');
  await expect(row).toContainText(token.slice(0, 12));
  await expect(row).not.toContainText(token);

  // ---- a script with the token ----
  const script = await request.newContext({ baseURL: berth.baseURL, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  try {
    const zone = await script.get(`/api/host/domain/${domain.id}/dns`);
    expect(zone.status()).toBe(200);
    const added = await script.post(`/api/host/domain/${domain.id}/dns`, { data: { name: 'ci', type: 'A', content: '192.0.2.44' } });
    expect(added.status(), await added.text()).toBe(201);
    const outside = await script.get('/api/host/domain');
    expect(outside.status()).toBe(403);
    expect((await outside.json()).message).toBe('This API token lacks the scope domains:read.');

    await page.reload();
    await expect(row).toContainText('127.0.0.1', { timeout: 30_000 });
    await reviewScreen(page, testInfo, 'api-tokens-list', MAIN);

    await row.getByRole('button', { name: 'Revoke the token Deploy script' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this token?' });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The token has been revoked.' })).toBeVisible();
    await expect(page.getByText('No tokens yet')).toBeVisible();
    expect((await script.get(`/api/host/domain/${domain.id}/dns`)).status()).toBe(401);
  } finally {
    await script.dispose();
  }
});
