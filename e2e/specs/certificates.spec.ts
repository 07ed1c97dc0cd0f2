import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium } from '@playwright/test';
import { signInPage, uniqueToken } from '../support/accounts.ts';
import { test, expect } from '../support/certificates.ts';
import { reviewScreen } from '../support/review.ts';
import { buyDomainInBrowser, giveCredit, superAdmin } from '../support/shop.ts';
import { ownChain } from '../../server/test/own-certificate.ts';

// A domain bought in the shop gets a certificate on its own within seconds: Debian's Pebble checks
// the DNS-01 answer Berth's PowerDNS serves, the domain page shows it valid, and a browser that
// trusts Pebble's root (and nothing else of this test) loads the site over HTTPS without a warning.

const run = promisify(execFile);

test('a customer buys a domain and, within seconds, its page shows a valid certificate and the browser loads it over HTTPS', async ({
  page,
  accounts,
  berth,
  hostingServices,
  acme,
}, testInfo) => {
  test.slow();
  const owner = await accounts.customer('certificate');
  await giveCredit(await superAdmin(accounts, berth.admin), owner.id, 100_00);
  const name = `e2e-${uniqueToken()}.com`;

  await signInPage(page, owner);
  const domain = { id: await buyDomainInBrowser(page, name) };

  await page.goto(`/host/domain/${domain.id}/edit`);
  const section = page.getByTestId('domain-certificate');
  await expect(section.getByTestId('certificate-state')).toHaveText('Valid', { timeout: 20_000 });
  await expect(section).toContainText(`${name}, *.${name}`);
  await expect(section).toContainText(/Pebble/);
  await expect(section).toContainText("a DNS record in Berth's own zone (DNS-01)");
  await section.scrollIntoViewIfNeeded();
  await reviewScreen(page, testInfo, 'certificate-valid', { include: 'main' });

  // "Renew now": a new one is ordered, and the page says so.
  await section.getByRole('button', { name: 'Renew now' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'A new certificate is being ordered' })).toBeVisible();
  await expect(section.getByTestId('certificate-state')).toHaveText('Valid', { timeout: 20_000 });

  // A browser whose only extra trust is Pebble's root of this run (its own NSS database), the
  // customer's name resolved to this machine's nginx.
  const home = await mkdtemp(path.join(tmpdir(), 'berth-e2e-browser-'));
  try {
    const nss = path.join(home, '.pki', 'nssdb');
    await mkdir(nss, { recursive: true });
    await writeFile(path.join(home, 'pebble-root.pem'), await acme.pebble.root());
    await run('certutil', ['-N', '-d', `sql:${nss}`, '--empty-password']);
    await run('certutil', ['-A', '-d', `sql:${nss}`, '-n', 'pebble', '-t', 'C,,', '-i', path.join(home, 'pebble-root.pem')]);
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', `--host-resolver-rules=MAP ${name} 127.0.0.1, MAP www.${name} 127.0.0.1`],
      env: { ...process.env, HOME: home },
    });
    try {
      const context = await browser.newContext({
        viewport: testInfo.project.name === 'phone' ? { width: 390, height: 844 } : { width: 1280, height: 800 },
      });
      const visitor = await context.newPage();
      const answer = await visitor.goto(`https://www.${name}:${hostingServices.httpsPort}/`);
      expect(answer?.status()).toBe(200);
      expect((await answer?.securityDetails())?.issuer).toMatch(/Pebble/);
      await expect(visitor.getByRole('heading', { name: 'This website is ready' })).toBeVisible();
      await reviewScreen(visitor, testInfo, 'certificate-https-site');
      // Plain HTTP is sent to HTTPS (the site's default).
      const plain = await visitor.goto(`http://${name}:${hostingServices.httpPort}/`);
      expect(plain?.url()).toBe(`https://${name}:${hostingServices.httpsPort}/`);
    } finally {
      await browser.close();
    }
  } finally {
    await rm(home, { recursive: true, force: true });
  }

  // One's own certificate instead: a wrong key is refused on its field, the right one taken.
  const ownDir = await mkdtemp(path.join(tmpdir(), 'berth-e2e-own-'));
  const own = await ownChain(ownDir, [name, `*.${name}`], 'e2e');
  await rm(ownDir, { recursive: true, force: true });
  await section.getByRole('button', { name: 'Use your own certificate' }).click();
  const form = page.getByRole('form', { name: 'Your own certificate' });
  await form.getByLabel('Certificate (PEM)').fill(own.leaf + own.intermediate + own.root);
  await form.getByLabel('Private key (PEM)').fill(own.otherKey);
  await form.getByRole('button', { name: 'Use this certificate' }).click();
  await expect(form.getByText('This key does not belong to the certificate.')).toBeVisible();
  await reviewScreen(page, testInfo, 'certificate-own-refused', { include: 'main' });
  await form.getByLabel('Private key (PEM)').fill(own.key);
  await form.getByRole('button', { name: 'Use this certificate' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your certificate is saved' })).toBeVisible();
  await expect(section).toContainText('uploaded by you');
  await expect(section).toContainText('Test Intermediate e2e');
});
