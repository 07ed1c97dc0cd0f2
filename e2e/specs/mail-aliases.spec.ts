import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { signInPage } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';

// /host/domain/{id}/aliases, a domain's forwarders (GET/POST /host/domain/{id}/aliases, DELETE
// .../{aliasId}): what Postfix reads as virtual aliases (server/test/daemons/mail.daemon.test.ts).

const MAIN = { include: 'main' };
const aliasRow = (page: Page, address: string) => page.getByTestId('mail-alias-row').filter({ hasText: address });
const notice = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

test('a customer adds a forwarder, is told about a loop on its field, and removes it', async ({ page, accounts }, testInfo) => {
  const owner = await accounts.customer('aliases-owner');
  const domain = await accounts.domain(owner);
  await signInPage(page, owner);
  await page.goto(`/host/domain/${domain.id}/aliases`);
  // The first page of a fresh session loads the shell and its lazy chunks: slow on a busy machine.
  await expect(page.getByRole('heading', { level: 1, name: `Forwarders of ${domain.name}` })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('No forwarders yet')).toBeVisible();
  await reviewScreen(page, testInfo, 'mail-aliases-empty', MAIN);

  const address = page.getByLabel('Address', { exact: true });
  const destination = page.getByLabel('Forward to', { exact: true });
  const add = page.getByRole('button', { name: 'Add forwarder' });

  // A forwarder to its own address: the server's 422 under the field.
  await address.fill('loop');
  await destination.fill(`loop@${domain.name}`);
  await add.click();
  await expect(destination).toHaveAccessibleDescription(
    /A forwarder cannot send mail back to its own address, directly or through other forwarders\./,
  );
  await reviewScreen(page, testInfo, 'mail-aliases-loop', MAIN);

  await address.fill('sales');
  await destination.fill('Team@Elsewhere.example');
  await add.click();
  await expect(notice(page, `sales@${domain.name} now forwards to team@elsewhere.example.`)).toBeVisible();
  const row = aliasRow(page, `sales@${domain.name}`);
  await expect(row).toContainText('team@elsewhere.example');
  await expect(page.getByText('1 forwarder', { exact: true })).toBeVisible();
  await expect(address).toHaveValue('');
  await reviewScreen(page, testInfo, 'mail-aliases-list', MAIN);

  await page.getByRole('button', { name: `Remove the forwarder sales@${domain.name} → team@elsewhere.example` }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove this forwarder?' });
  await confirm.getByRole('button', { name: 'Remove forwarder' }).click();
  await expect(notice(page, `sales@${domain.name} no longer forwards to team@elsewhere.example.`)).toBeVisible();
  await expect(page.getByText('No forwarders yet')).toBeVisible();
});
