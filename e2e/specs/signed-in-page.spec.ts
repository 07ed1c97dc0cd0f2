import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { countLayoutShifts, layoutShift } from '../support/layoutShift.ts';
import { keepScreenshot } from '../support/screenshots.ts';
import { holdScripts } from '../support/holdScripts.ts';

// A signed-in page comes rendered by the server with the user's data (server/src/http/signed-in-page.ts):
// on a slow network it is there with the stylesheets alone, and the app's scripts are asked for
// once it is painted; the app then takes it over with the same answers, in place.

test.use({ waitForApp: false });

/** Every CSP refusal the page meets (an inline style or script would be one). */
async function collectPolicyViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen = window as unknown as { violations: string[] };
    seen.violations = [];
    document.addEventListener('securitypolicyviolation', (event) => seen.violations.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
}
const violations = (page: Page): Promise<string[]> => page.evaluate(() => (window as unknown as { violations: string[] }).violations);

test('the dashboard is painted with the user’s numbers before the app’s scripts arrive, and the app takes it over in place', async ({
  page,
  berth,
}, testInfo) => {
  const login = await page.request.post('/api/login', {
    data: { email: berth.admin.email, password: berth.admin.password, remember: true },
  });
  expect(login.status()).toBe(200);
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  const apiCalls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) apiCalls.push(url.pathname);
  });
  await countLayoutShifts(page);
  await collectPolicyViolations(page);
  const release = await holdScripts(page, 'page-boot');

  await page.goto('/dashboard');
  // The server's page: the user's name and the numbers, with no script of the app run yet.
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Super Admin' })).toBeVisible();
  const numbers = page.getByRole('region', { name: 'Key numbers' });
  await expect(numbers).toBeVisible();
  await expect(numbers.getByRole('link').first()).toBeVisible();
  await expect(page.locator('#prerender')).toHaveAttribute('inert');
  // The header's account menu is the server's too.
  await expect(page.getByTestId('shell-user-name')).toHaveText('Super Admin');
  // Laid out for this screen: the menu beside the page on a wide one, in a drawer on a phone.
  const phone = testInfo.project.name === 'phone';
  await expect(page.getByTestId('shell-sidebar')).toHaveCount(phone ? 0 : 1);
  const heading = page.getByRole('heading', { level: 1, name: 'Welcome, Super Admin' });
  const before = await heading.boundingBox();
  expect(scripts[0]).toMatch(/\/page-boot-[\w-]+\.js$/);
  await keepScreenshot(page, testInfo, 'dashboard-before-scripts');

  release();
  await expect(page.locator('#prerender')).toHaveCount(0);
  await expect(heading).toBeVisible();
  // The app's page is where the server's was.
  expect(await heading.boundingBox()).toEqual(before);
  await expect(page.getByTestId('shell-sidebar')).toHaveCount(phone ? 0 : 1);
  // The app started from the page's answers: it did not ask for the user or the menu again.
  expect(apiCalls).not.toContain('/api/user');
  expect(apiCalls).not.toContain('/api/menu');
  expect(await layoutShift(page)).toBeLessThan(0.01);
  expect(await violations(page)).toEqual([]);
  // And it is the app's page now: its links navigate in place.
  const card = numbers.getByRole('link').first();
  const target = new URL((await card.getAttribute('href')) ?? '', 'http://x').pathname;
  expect(target).not.toBe('/dashboard');
  await card.click();
  await expect(page).toHaveURL((url) => url.pathname === target);
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Welcome, Super Admin');
});

test('a page the server cannot render for the session (signed out) is the app’s as before', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL((url) => url.pathname === '/login');
  await expect(page.getByRole('heading', { name: 'Log in to your account' })).toBeVisible();
});

test.describe('in a browser far from UTC', () => {
  // UTC+14: no time of day reads the same there and in UTC, the server's zone here.
  test.use({ timezoneId: 'Pacific/Kiritimati' });

  test('the server’s page shows dates and times in the browser’s zone, as the app does', async ({ page, berth }) => {
    const login = await page.request.post('/api/login', {
      data: { email: berth.admin.email, password: berth.admin.password, remember: true },
    });
    expect(login.status()).toBe(200);
    // The app, once started, tells the server its zone (a cookie) for the pages it renders next.
    await page.goto('/account');
    await expect(page.locator('#prerender')).toHaveCount(0);
    expect((await page.context().cookies()).find((cookie) => cookie.name === 'berth_time_zone')?.value).toBe('Pacific%2FKiritimati');

    const release = await holdScripts(page, 'page-boot');
    await page.goto('/system/audit');
    const when = page.getByTestId('audit-entry').first().locator('time');
    const at = new Date((await when.getAttribute('datetime')) ?? '');
    const local = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Pacific/Kiritimati' }).format(at);
    await expect(page.locator('#prerender')).toHaveAttribute('inert');
    await expect(when).toHaveText(local);
    release();
    await expect(page.locator('#prerender')).toHaveCount(0);
    await expect(page.getByTestId('audit-entry').first().locator('time')).toHaveText(local);
  });
});

test('where the app itself waits for the user, it shows the spinner with the wait message', async ({ page, baseURL }) => {
  // A session cookie the server cannot read: it sends the plain page, and the app asks GET /api/user
  // (docs/product.md §2: a loading spinner with a wait message until the user is loaded).
  await page.context().addCookies([{ name: 'berth_session', value: 'a-session-that-ended', url: baseURL ?? '' }]);
  // The answers are held until the spinner has been seen, however slowly the page's scripts
  // arrive: the user's, and the menu's and the page's asked beside it (their 401 alone would send
  // the visitor to log in before the user's answer came).
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked = 0;
  await page.route('**/api/**', async (route) => {
    if (new URL(route.request().url()).pathname === '/api/user') asked++;
    await released;
    await route.continue();
  });
  await page.goto('/dashboard');
  await expect(page.getByRole('status').filter({ hasText: 'Loading your panel, please wait…' })).toBeVisible();
  expect(asked).toBeGreaterThan(0);
  release();
  // Then the answer (no session) sends the visitor to log in.
  await expect(page).toHaveURL((url) => url.pathname === '/login');
});
