import { Resolver } from 'node:dns/promises';
import { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import { addAccountInBrowser, newPassword, signInPage, uniqueToken } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';
import { keepScreenshot } from '../support/screenshots.ts';
import { test, expect, type HostingServices } from '../support/services.ts';

// What a customer does in the browser is served by the real daemons from Debian's packages,
// started by `npm run services` on the worker's PostgreSQL database: an A record added on the
// DNS page is answered by PowerDNS; a mailbox added on the accounts page receives mail through
// Postfix and lists it over Dovecot's IMAP with the password typed in the browser.

const MAIN = { include: 'main' };

/** Asks PowerDNS for the A records of `name` (empty while it answers nothing). */
async function addressesOf(services: HostingServices, name: string): Promise<string[]> {
  const resolver = new Resolver({ timeout: 1_000, tries: 1 });
  resolver.setServers([`127.0.0.1:${services.dnsPort}`]);
  try {
    return await resolver.resolve4(name);
  } catch {
    return [];
  }
}

/** The subjects in the INBOX of `user`, read over IMAP. */
async function inbox(services: HostingServices, user: string, pass: string): Promise<string[]> {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port: services.imapPort,
    secure: false,
    doSTARTTLS: false,
    auth: { user, pass },
    logger: false,
  });
  await client.connect();
  const subjects: string[] = [];
  try {
    const status = await client.status('INBOX', { messages: true });
    if (status && status.messages) {
      const lock = await client.getMailboxLock('INBOX');
      try {
        for await (const message of client.fetch('1:*', { envelope: true })) subjects.push(message.envelope?.subject ?? '');
      } finally {
        lock.release();
      }
    }
  } finally {
    await client.logout();
  }
  return subjects;
}

test('an A record added on the DNS page is answered by PowerDNS', async ({ page, accounts, hostingServices }, testInfo) => {
  const owner = await accounts.customer('served-dns');
  const domain = await accounts.domain(owner);
  await signInPage(page, owner);
  await page.goto(`/host/domain/${domain.id}/dns`);
  await expect(page.getByRole('heading', { level: 1, name: `DNS zone of ${domain.name}` })).toBeVisible({ timeout: 30_000 });
  // On PostgreSQL the zone is served: no "not served yet" notice.
  await expect(page.getByText('Not served yet')).toHaveCount(0);
  expect(await addressesOf(hostingServices, `www.${domain.name}`)).toEqual([]);

  await page.getByRole('main').getByRole('button', { name: 'Add record' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add a DNS record' });
  await dialog.getByLabel('Name', { exact: true }).fill('www');
  await dialog.getByLabel('IPv4 address').fill('192.0.2.80');
  await dialog.getByRole('button', { name: 'Add record' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The DNS record has been saved.' }).first()).toBeVisible();
  await expect.poll(() => addressesOf(hostingServices, `www.${domain.name}`), { timeout: 5_000 }).toEqual(['192.0.2.80']);
  await reviewScreen(page, testInfo, 'served-dns', MAIN);
});

test('a mailbox added on the accounts page receives mail, listed over IMAP and in its mail log', async ({
  page,
  accounts,
  hostingServices,
}, testInfo) => {
  const owner = await accounts.customer('served-mail');
  const domain = await accounts.domain(owner);
  const uid = `inbox${uniqueToken(2)}`;
  const password = newPassword();
  await signInPage(page, owner);
  await page.goto(`/host/domain/${domain.id}/users`);
  await expect(page.getByText('Not served yet')).toHaveCount(0, { timeout: 30_000 });
  await addAccountInBrowser(page, uid, password);
  await expect(page.getByRole('main')).toContainText(`${uid}@${domain.name}`);
  await reviewScreen(page, testInfo, 'served-mailbox', MAIN);

  const address = `${uid}@${domain.name}`;
  const subject = `Welcome ${uniqueToken()}`;
  const smtp = nodemailer.createTransport({
    host: '127.0.0.1',
    port: hostingServices.smtpPort,
    secure: false,
    ignoreTLS: true,
    name: 'client.test',
  });
  await smtp.sendMail({ from: 'sender@elsewhere.test', to: address, subject, text: 'Hello from the e2e test.' });
  // Postfix hands the message to Dovecot by LMTP: it is in the INBOX a moment later.
  await expect.poll(() => inbox(hostingServices, address, password), { timeout: 10_000 }).toContain(subject);

  // The mail log (the mail agent reads Postfix's log) says where it went.
  await page.getByRole('button', { name: `Actions for ${address}` }).click();
  await page.getByRole('menuitem', { name: 'Mail log' }).click();
  const log = page.getByRole('dialog', { name: `Mail log of ${address}` });
  await expect(log.getByTestId('mail-log')).toContainText('Received from sender@elsewhere.test', { timeout: 15_000 });
  await expect(log.getByTestId('mail-log')).toContainText('Delivered');
  await reviewScreen(page, testInfo, 'served-mail-log', { include: '[role="dialog"]' });
  await page.setViewportSize({ width: 375, height: 812 });
  await reviewScreen(page, testInfo, 'served-mail-log-phone', { include: '[role="dialog"]' });
});

test.describe('webmail', () => {
  // Roundcube is served with nginx's default certificate here (the panel host's in production).
  test.use({ ignoreHTTPSErrors: true });

  test("a customer opens webmail from a mailbox's row and sends to another mailbox: it arrives over IMAP and the mail log says delivered", async ({
    page,
    accounts,
    hostingServices,
  }, testInfo) => {
    const owner = await accounts.customer('served-webmail');
    const domain = await accounts.domain(owner);
    const sender = `send${uniqueToken(2)}@${domain.name}`;
    const reader = `read${uniqueToken(2)}@${domain.name}`;
    const password = newPassword();
    await signInPage(page, owner);
    await page.goto(`/host/domain/${domain.id}/users`);
    await expect(page.getByText('Not served yet')).toHaveCount(0, { timeout: 30_000 });
    await addAccountInBrowser(page, sender.split('@')[0]!, password);
    await addAccountInBrowser(page, reader.split('@')[0]!, password);

    const link = page.getByRole('link', { name: `Open webmail for ${sender} (new tab)` });
    await expect(link).toHaveAttribute(
      'href',
      `https://webmail.localhost:${hostingServices.httpsPort}/?_user=${encodeURIComponent(sender)}`,
    );
    await reviewScreen(page, testInfo, 'served-webmail-link', MAIN);
    const [webmail] = await Promise.all([page.context().waitForEvent('page'), link.click()]);

    // Roundcube's login, the address filled in from the link; the mailbox's own password over IMAP.
    await expect(webmail.locator('#rcmloginuser')).toHaveValue(sender, { timeout: 15_000 });
    await keepScreenshot(webmail, testInfo, 'served-webmail-login');
    await webmail.locator('#rcmloginpwd').fill(password);
    await webmail.locator('#rcmloginsubmit').click();
    // The inbox, once its scripts run (a click before that only marks the button).
    await expect(webmail.getByText('The list is empty.')).toBeVisible({ timeout: 15_000 });
    await expect(async () => {
      await webmail.locator('a.compose:visible').first().click();
      await expect(webmail.locator('#compose-subject')).toBeVisible({ timeout: 3_000 });
    }).toPass({ timeout: 20_000 });
    const subject = `From webmail ${uniqueToken()}`;
    const to = webmail.locator('#compose_to input[type="text"]').first();
    await to.fill(reader);
    await to.press('Enter');
    await webmail.locator('#compose-subject').fill(subject);
    await webmail.locator('#composebody').fill('Sent from Roundcube, signed and counted like any other.');
    await keepScreenshot(webmail, testInfo, 'served-webmail-compose');
    // Roundcube shows its confirmation for half a second and then goes back to the list (its
    // sent_successfully), too briefly to be caught on a busy machine: the answer to the compose
    // form, posted into its hidden frame, is what tells the page to show it. A draft's autosave
    // posts the same form with `_draft=1`; a send leaves it empty.
    const sent = webmail.waitForResponse(
      (answer) => {
        if (answer.request().method() !== 'POST' || !answer.url().includes('_framed=1')) return false;
        const form = new URLSearchParams(answer.request().postData() ?? '');
        return form.get('_action') === 'send' && form.get('_draft') === '';
      },
      { timeout: 20_000 },
    );
    await webmail.locator('.btn.send:visible').first().click();
    expect(await (await sent).text()).toContain('Message sent successfully.');
    await expect(webmail.getByText('The list is empty.')).toBeVisible({ timeout: 15_000 });

    // Through the submission port and Postfix into the other mailbox.
    await expect.poll(() => inbox(hostingServices, reader, password), { timeout: 20_000 }).toContain(subject);
    await webmail.close();

    await page.getByRole('button', { name: `Actions for ${sender}` }).click();
    await page.getByRole('menuitem', { name: 'Mail log' }).click();
    const log = page.getByRole('dialog', { name: `Mail log of ${sender}` });
    await expect(log.getByTestId('mail-log')).toContainText(`Sent to ${reader}`, { timeout: 15_000 });
    await expect(log.getByTestId('mail-log')).toContainText('Delivered');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 375, height: 812 });
    await reviewScreen(page, testInfo, 'served-webmail-link-phone', MAIN);
    // Nothing wider than the phone: the breadcrumb's parent gives way to the current page.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});
