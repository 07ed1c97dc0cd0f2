import { Readable } from 'node:stream';
import { Client as FtpClient } from 'basic-ftp';
import { addAccountInBrowser, newPassword, signInPage, uniqueToken } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';
import { test, expect } from '../support/services.ts';

// A domain is a website: nginx serves it from the database within a second of its making, the
// domain page says it is live, a mailbox & FTP user added in the browser uploads over explicit
// FTPS (Pure-FTPd), and the browser loads the uploaded page from the web server.

test('a customer sees the site live, uploads a page over FTPS and the browser loads it', async ({
  page,
  context,
  accounts,
  hostingServices,
}, testInfo) => {
  const owner = await accounts.customer('website');
  const domain = await accounts.domain(owner);
  // The browser asks for the customer's own name; this machine's nginx answers it (no public DNS here).
  await context.route(`http://${domain.name}/**`, async (route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({
      url: `http://127.0.0.1:${hostingServices.httpPort}${url.pathname}${url.search}`,
      headers: { ...route.request().headers(), host: domain.name },
    });
    await route.fulfill({ response });
  });

  await signInPage(page, owner);
  await page.goto(`/host/domain/${domain.id}/edit`);
  const website = page.getByTestId('domain-website');
  await expect(website.getByTestId('website-state')).toHaveText('Live', { timeout: 15_000 });
  await expect(website).toContainText('Served by web1');
  await expect(website).toContainText('public_html/');
  await reviewScreen(page, testInfo, 'website-live', { include: 'main' });

  // The placeholder until the customer uploads.
  const placeholder = await context.newPage();
  await placeholder.goto(`http://${domain.name}/`);
  await expect(placeholder.getByRole('heading', { name: 'This website is ready' })).toBeVisible();
  await placeholder.close();

  const uid = `web${uniqueToken(2)}`;
  const password = newPassword();
  await page.goto(`/host/domain/${domain.id}/users`);
  await addAccountInBrowser(page, uid, password);

  const greeting = `Hello from ${uniqueToken()}`;
  const ftp = new FtpClient(15_000);
  try {
    await ftp.access({
      host: '127.0.0.1',
      port: hostingServices.ftpPort,
      user: `${uid}@${domain.name}`,
      password,
      secure: true,
      // The self-signed default certificate, until the name has its own.
      secureOptions: { rejectUnauthorized: false },
    });
    await ftp.uploadFrom(Readable.from([`<!doctype html><title>Mine</title><h1>${greeting}</h1>`]), 'public_html/index.html');
  } finally {
    ftp.close();
  }

  await page.goto(`/host/domain/${domain.id}/edit`);
  const [site] = await Promise.all([page.waitForEvent('popup'), website.getByRole('link', { name: domain.name }).click()]);
  await expect(site.getByRole('heading', { level: 1 })).toHaveText(greeting);
  await site.close();

  // The visit is in the site's access log on the domain page, newest first, beside the disk it uses.
  await page.bringToFront();
  const logs = website.getByTestId('website-logs');
  await expect(logs.getByRole('region').or(logs.locator('pre'))).toContainText('"GET / HTTP/1.1" 200', { timeout: 15_000 });
  await expect(website.getByTestId('website-disk')).toContainText('Disk used:', { timeout: 15_000 });
  await reviewScreen(page, testInfo, 'website-logs', { include: 'main' });
});
