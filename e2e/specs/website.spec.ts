import { request } from 'node:http';
import { Readable } from 'node:stream';
import { Client as FtpClient } from 'basic-ftp';
import { addAccountInBrowser, newPassword, signInPage, uniqueToken } from '../support/accounts.ts';
import { buyDomainInBrowser, giveCredit, superAdmin } from '../support/shop.ts';
import { reviewScreen } from '../support/review.ts';
import { test, expect } from '../support/services.ts';

// A domain is a website: nginx serves it from the database within a second of its making, the
// domain page says it is live, a mailbox & FTP user added in the browser uploads over explicit
// FTPS (Pure-FTPd), and the browser loads the uploaded page from the web server.

/** The status and Location nginx answers for `host` (a redirect is not followed). */
function headOf(port: number, host: string, pathname: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathname, headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a customer buys a domain in the shop, sees its site live, uploads a page over FTPS and the browser loads it', async ({
  page,
  context,
  accounts,
  berth,
  hostingServices,
}, testInfo) => {
  test.slow();
  const owner = await accounts.customer('website');
  await giveCredit(await superAdmin(accounts, berth.admin), owner.id, 100_00);
  const name = `e2e-${uniqueToken()}.com`;
  // The browser asks for the customer's own name; this machine's nginx answers it (no public DNS here).
  await context.route(`http://${name}/**`, async (route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({
      url: `http://127.0.0.1:${hostingServices.httpPort}${url.pathname}${url.search}`,
      headers: { ...route.request().headers(), host: name },
    });
    await route.fulfill({ response });
  });

  // The site is made in the browser: the domain bought in the shop, paid from credit.
  await signInPage(page, owner);
  const domain = { id: await buyDomainInBrowser(page, name), name };

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

test('a customer adds an alias and sends www to the bare name; a super admin sees the servers and which one serves the site', async ({
  page,
  context,
  browser,
  accounts,
  berth,
  hostingServices,
}, testInfo) => {
  const owner = await accounts.customer('aliases');
  const domain = await accounts.domain(owner);
  // Every name below the customer's domain goes to this machine's nginx, redirects not followed.
  await context.route(
    (url) => url.hostname === domain.name || url.hostname.endsWith(`.${domain.name}`),
    async (route) => {
      const url = new URL(route.request().url());
      const response = await route.fetch({
        url: `http://127.0.0.1:${hostingServices.httpPort}${url.pathname}${url.search}`,
        headers: { ...route.request().headers(), host: url.hostname },
        maxRedirects: 0,
      });
      await route.fulfill({ response });
    },
  );

  await signInPage(page, owner);
  await page.goto(`/host/domain/${domain.id}/edit`);
  const website = page.getByTestId('domain-website');
  await expect(website.getByTestId('website-state')).toHaveText('Live', { timeout: 15_000 });
  const aliases = page.getByRole('textbox', { name: 'Aliases' });
  await aliases.fill('blog');
  await aliases.press('Enter');
  await page.getByLabel('www and the bare domain').selectOption({ label: `Send www.${domain.name} to ${domain.name}` });
  // Only what the site's web server has is offered, beside off.
  await expect(page.getByLabel('PHP version').locator('option')).toHaveText(['Off (static files only)', 'PHP 8.2']);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText(`The domain ${domain.name} has been saved.`)).toBeVisible();
  await expect(website.getByTestId('website-state')).toHaveText('Live', { timeout: 15_000 });
  await expect(website.getByTestId('website-names')).toHaveText(
    `Also answers www.${domain.name}, blog.${domain.name}. www.${domain.name} sends visitors on to ${domain.name}.`,
  );
  await reviewScreen(page, testInfo, 'website-aliases', { include: 'main' });

  const blog = await context.newPage();
  await blog.goto(`http://blog.${domain.name}/`);
  await expect(blog.getByRole('heading', { name: 'This website is ready' })).toBeVisible();
  await blog.close();
  const www = await headOf(hostingServices.httpPort, `www.${domain.name}`, '/about?x=1');
  expect(www).toEqual({ status: 301, location: `http://${domain.name}/about?x=1` });

  // The super admin: the servers page, and the web server setting on the domain page.
  const operator = await browser.newContext({ baseURL: berth.baseURL });
  const admin = await operator.newPage();
  try {
    await signInPage(admin, berth.admin);
    await admin.goto('/system/servers');
    const row = admin.getByRole('row', { name: /web1/ });
    await expect(row).toContainText('Websites');
    await expect(row).toContainText('8.2');
    // The panel's own certificate: none here (no public name), said with what it needs.
    const panel = admin.getByTestId('platform-certificate');
    await expect(panel).toHaveAttribute('data-state', 'none');
    await expect(panel).toContainText('BERTH_PUBLIC_URL');
    await reviewScreen(admin, testInfo, 'servers', { include: 'main' });
    await admin.goto(`/host/domain/${domain.id}/edit`);
    await expect(admin.getByLabel('Web server')).toHaveValue(/\d+/);
    await expect(admin.getByLabel('Web server').locator('option:checked')).toHaveText(/^web1 \(\d+ sites?\)$/);
  } finally {
    await operator.close();
  }
});
