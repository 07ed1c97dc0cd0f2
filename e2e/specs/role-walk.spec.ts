import type { Page } from '@playwright/test';
import type { MenuItem } from '@berth/contracts';
import { blockingAxeViolations } from '../support/accessibility.ts';
import { keepScreenshot } from '../support/screenshots.ts';
import { waitUntilSettled } from '../support/settle.ts';
import { test, expect } from '../support/shell-fixtures.ts';
import { FLEET_HOST, HARBOR_HOST, RESELLER_HOST, seedUsers } from '../support/shell-server.ts';

// Issue 14 "dead ends by role": every menu item and profile link a role is offered opens a page
// that role can use: no "not allowed" page, no "not found", no API call answered 403.

interface Walker {
  role: string;
  email: string;
  host: string | undefined;
}

const WALKERS: Walker[] = [
  { role: 'super admin', email: seedUsers.superAdmin, host: undefined },
  { role: 'host admin', email: seedUsers.harborAdmin, host: HARBOR_HOST },
  { role: 'customer', email: seedUsers.hana, host: HARBOR_HOST },
  { role: 'reseller admin (host_purchases)', email: seedUsers.fleetAdmin, host: FLEET_HOST },
  { role: 'customer of a reseller (host_purchases)', email: seedUsers.captain, host: FLEET_HOST },
  { role: "demo reseller's admin", email: seedUsers.resellerAdmin, host: RESELLER_HOST },
  { role: 'customer of the demo reseller', email: seedUsers.marta, host: RESELLER_HOST },
];

function routesOf(items: MenuItem[]): string[] {
  return items.flatMap((item) => [...(item.route ? [item.route] : []), ...routesOf(item.children)]);
}

async function profileLinks(page: Page): Promise<string[]> {
  await page.getByTestId('profile-menu').click();
  const links = await page.getByRole('menuitem').evaluateAll((items) => items.map((item) => item.getAttribute('href') ?? ''));
  await page.keyboard.press('Escape');
  return links.filter((href) => href.startsWith('/'));
}

for (const walker of WALKERS) {
  test(`every page a ${walker.role} is offered can be used`, async ({ page, openAs }, testInfo) => {
    // The pages do not depend on the viewport; the phone project runs the layout specs.
    test.skip(testInfo.project.name !== 'desktop', 'the pages a role is offered do not depend on the viewport');
    test.setTimeout(180_000);
    const origin = await openAs(walker.email, '/dashboard', walker.host);
    // Asked from the page: the tenants' host names resolve in the browser only.
    const menu = await page.evaluate(async () => (await (await fetch('/api/menu')).json()) as { data: MenuItem[] });
    const offered = [...new Set([...routesOf(menu.data), ...(await profileLinks(page))])];
    expect(offered.length).toBeGreaterThan(5);

    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/') && response.status() === 403) refused.push(`${page.url()} → ${response.url()}`);
    });
    for (const route of offered) {
      await page.goto(`${origin}${route}`);
      await expect(page.getByTestId('shell-user-name')).toBeAttached();
      await waitUntilSettled(page);
      await expect(page.getByRole('heading', { level: 1 }).first(), route).toBeVisible();
      await expect(page.getByTestId('not-allowed'), route).toHaveCount(0);
      await expect(page.getByText(/You do not have permission|You are not allowed/), route).toHaveCount(0);
      await expect(page.getByRole('heading', { name: 'Page not found' }), route).toHaveCount(0);
    }
    expect(refused).toEqual([]);

    // The header's credit (shown where the tenant sells) speaks to the role that sees it.
    const credit = page.getByTestId('partner-credit');
    if (await credit.count()) {
      const customer = walker.role.startsWith('customer');
      await expect(credit).toHaveAccessibleName(customer ? /^Credit / : /^Partner credit /);
      if (customer) {
        await page.goto(`${origin}/system/partner/credit`);
        await expect(page.getByRole('heading', { level: 1, name: 'Credit' })).toBeVisible();
        await page.getByRole('button', { name: 'Add credit', exact: true }).click();
        const dialog = page.getByRole('dialog');
        await expect(dialog).toContainText('Top up your credit');
        await expect(dialog).not.toContainText('your customers');
        await waitUntilSettled(page);
        await keepScreenshot(page, testInfo, `role-walk-customer-credit-${walker.host ?? 'operator'}`);
        expect(await blockingAxeViolations(page, testInfo, 'customer credit dialog')).toEqual([]);
      }
    }
  });
}
