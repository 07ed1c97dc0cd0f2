import type { OutboxMail } from '@berth/contracts';
import { reviewScreen } from '../support/review.ts';
import { test, expect } from '../support/shell-fixtures.ts';
import { HARBOR_HOST, RESELLER_HOST, seedUsers } from '../support/shell-server.ts';

// Issue 14: the demo (`npm run cli -- demo`, loaded by support/shell-seed.ts with the server's
// port) shows the commercial side at once, and the links its mails carry reach the panel.

test('a mail from the demo tenant links to the panel on the port it runs on', async ({ page, openAs, seeded }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'mail links do not depend on the viewport');
  const harbor = seeded.urlOf(HARBOR_HOST);
  await page.goto(`${harbor}/login`);
  const asked = await page.evaluate(async (email) => {
    const answer = await fetch('/api/password/forgot', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    return answer.status;
  }, seedUsers.emma);
  expect(asked).toBe(200);

  // The operator's outbox holds every mail sent without an SMTP server.
  await openAs(seedUsers.superAdmin, '/system/outbox');
  let link = '';
  try {
    // The mail is written in the background after the answer; a busy machine may take seconds.
    await expect
      .poll(
        async () => {
          const mails = await page.evaluate(
            async () => ((await (await fetch('/api/system/outbox')).json()) as { data: OutboxMail[] }).data,
          );
          // Emma owns expiring demo domains: the expiry job may mail her too, newer than the reset.
          const mail = mails.find((candidate) => candidate.to === seedUsers.emma && /\/password\/reset\//.test(candidate.text));
          link = mail?.text.match(/https?:\/\/\S+\/password\/reset\/\S+/)?.[0] ?? '';
          return link;
        },
        { timeout: 30_000 },
      )
      .not.toBe('');
  } catch (error) {
    // What the server logged (each outbox mail, failed background tasks) says why no mail came.
    await testInfo.attach('seeded server output', { body: seeded.output(), contentType: 'text/plain' });
    throw error;
  }
  expect(link.startsWith(`${harbor}/password/reset/`)).toBe(true);
  await page.context().clearCookies();
  await page.goto(link);
  await expect(page.getByLabel('New password', { exact: true })).toBeVisible();
});

test('the demo reseller sells at once: partner credit, a promo code, its cart on the panel', async ({ page, openAs }, testInfo) => {
  const origin = await openAs(seedUsers.resellerAdmin, '/dashboard', RESELLER_HOST);
  // Credit to buy with: the header links to the ledger.
  const credit = page.getByTestId('partner-credit');
  await expect(credit).toHaveAccessibleName('Partner credit €100.00');
  await credit.click();
  await expect(page).toHaveURL((url) => url.pathname === '/system/partner/credit');
  await expect(page.getByRole('heading', { level: 1, name: 'Partner credit' })).toBeVisible();
  await reviewScreen(page, testInfo, 'demo-reseller-credit', { include: 'main' });

  await page.goto(`${origin}/system/partner/promo`);
  await expect(page.getByTestId('promo-list')).toContainText('WELCOME10');

  // The cart address of a host_purchases tenant is the panel's own cart on the tenant's host.
  await page.getByTestId('cart-link').click();
  await expect(page).toHaveURL(`${origin}/shop/cart`);
  await expect(page.getByRole('heading', { level: 1, name: 'Cart' })).toBeVisible();

  // Its customer sees their domains and the shop, never the reseller's tools.
  await openAs(seedUsers.marta, '/host/domain', RESELLER_HOST);
  await expect(page.getByRole('main')).toContainText('marta-atelier.cz');
  await reviewScreen(page, testInfo, 'demo-reseller-customer-domains', { include: 'main' });
});

test('the tenant brand is whole: a long title wraps at 1440 px, a logo fits the phone header', async ({ page, openAs }, testInfo) => {
  const phone = testInfo.project.name === 'phone';
  if (!phone) await page.setViewportSize({ width: 1440, height: 900 });
  await openAs(seedUsers.resellerAdmin, '/dashboard', RESELLER_HOST);
  if (!phone) {
    // Every word of "Anchor Web Reseller" is shown: the title is not cut with an ellipsis.
    const title = page.getByRole('banner').getByText('Anchor Web Reseller');
    await expect(title).toBeVisible();
    expect(
      await title.evaluate((element) => element.scrollHeight <= element.clientHeight + 1 && element.scrollWidth <= element.clientWidth + 1),
    ).toBe(true);
  }
  await reviewScreen(page, testInfo, 'demo-reseller-header');

  await openAs(seedUsers.harborAdmin, '/dashboard', HARBOR_HOST);
  const logo = page.getByRole('banner').getByRole('img', { name: 'Harbor Hosting logo' });
  await expect(logo).toBeVisible();
  // The whole picture is drawn inside its box, and the box inside the header and the screen.
  const fit = await logo.evaluate((element) => {
    const image = element as HTMLImageElement;
    const box = image.getBoundingClientRect();
    const header = image.closest('header')!.getBoundingClientRect();
    const drawnWidth = Math.min(box.width, (box.height * image.naturalWidth) / image.naturalHeight);
    return {
      inside: box.left >= header.left && box.right <= header.right && box.top >= header.top && box.bottom <= header.bottom,
      drawnWidth,
      boxWidth: box.width,
      natural: image.naturalWidth,
    };
  });
  expect(fit.inside).toBe(true);
  expect(fit.drawnWidth).toBeGreaterThan(40);
  await reviewScreen(page, testInfo, 'demo-harbor-header-logo');
});
