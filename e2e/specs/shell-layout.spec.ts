import { SCROLL_MS } from '@berth/contracts';
import { test, expect, openMenu } from '../support/shell-fixtures.ts';
import { isPhone, navigateWithState } from '../support/shell-helpers.ts';
import { HARBOR_HOST, seedUsers } from '../support/shell-server.ts';

// docs/product.md §2, §4 and §8: the render error boundary, scrolling on navigation, the footer,
// and the shell by keyboard.

test.describe('when a page fails to render', () => {
  // The page's code does not load (say, a deploy replaced it): React reports the error it caught.
  // One pattern: Playwright would read a two-item array as [value, fixture options].
  test.use({ allowedConsoleErrors: [/net::ERR_FAILED|Failed to fetch dynamically imported module/] });

  test('the content gives way to System.UnknownErrorCtrlF5, translated; the shell stays', async ({ page, openAs }) => {
    // The user's language is Czech (the seeded server is the worker's: English again after).
    const origin = await openAs(seedUsers.superAdmin, '/notifications');
    const speak = async (language: string) => {
      expect((await page.request.patch(`${origin}/api/user/language`, { data: { language } })).status()).toBe(200);
    };
    await speak('cs');
    try {
      await page.goto(`${origin}/dashboard`);
      await expect(page.locator('html')).toHaveAttribute('lang', 'cs');
      await page.route('**/admin/assets/AccountPage-*.js', (route) => route.abort());

      await page.getByTestId('profile-menu').click();
      await page.getByRole('menuitem', { name: 'Účet' }).click();
      await expect(page).toHaveURL((url) => url.pathname === '/account');
      const failure = page.getByTestId('render-error');
      await expect(failure.getByRole('alert')).toHaveText('Došlo k neznámé chybě. Načtěte prosím stránku znovu (Ctrl+F5).');
      await expect(page.getByRole('main').getByRole('heading')).toHaveCount(0);
      await expect(page.getByRole('banner')).toBeVisible();
      await expect(page.getByRole('navigation', { name: 'Drobečková navigace' }).getByRole('listitem')).toHaveText([
        'Domů',
        'Účet',
        'Profil',
      ]);

      // The next navigation renders again.
      await page.getByRole('navigation', { name: 'Drobečková navigace' }).getByRole('link', { name: 'Domů' }).click();
      await expect(page).toHaveURL((url) => url.pathname === '/dashboard');
      await expect(failure).toHaveCount(0);
      await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toHaveText('Vítejte, Super Admin');
    } finally {
      await speak('en');
    }
  });
});

test('a route change scrolls smoothly to the top in 400 ms', async ({ page, openAs }) => {
  // The page's clock (timers, animation frames, performance.now) stands still between steps, so
  // the 400 ms are measured in the page's own time, whatever the machine's load.
  await page.clock.install();
  await openAs(seedUsers.superAdmin, '/dashboard');
  // A long page (the sticky header sticks within the shell's frame, so the frame grows).
  await page.evaluate(() => {
    document.querySelector('main')?.style.setProperty('min-height', '5000px');
    // Chromium's scroll anchoring would move the page by whatever grows above the viewport while
    // the next page loads (454 px on a phone in CI): the start must be the 1,500 px set here.
    document.documentElement.style.setProperty('overflow-anchor', 'none');
    window.scrollTo({ top: 1_500, behavior: 'instant' });
  });
  const scrollY = () => page.evaluate(() => window.scrollY);
  await expect.poll(scrollY).toBe(1_500);
  // Far enough ahead that a busy machine has not passed it by the time the call arrives.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 10_000);

  // The header stays on screen (sticky): its cart link navigates.
  await page.getByTestId('cart-link').click();
  await expect(page).toHaveURL((url) => url.pathname === '/shop/cart');
  expect(await scrollY()).toBe(1_500);

  await page.clock.runFor(SCROLL_MS / 2);
  const halfway = await scrollY();
  expect(halfway, 'half the time, about half the way (ease-in-out)').toBeGreaterThan(1_500 * 0.3);
  expect(halfway).toBeLessThan(1_500 * 0.7);
  await page.clock.runFor(SCROLL_MS / 2 - 50);
  expect(await scrollY(), 'not there before 400 ms').toBeGreaterThan(0);
  await page.clock.runFor(100);
  expect(await scrollY()).toBe(0);
  await page.clock.resume();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cart');
});

test('navigation state scrolls to the element it names, below the header', async ({ page, openAs }) => {
  await openAs(seedUsers.petr, '/dashboard', HARBOR_HOST);
  await page.evaluate(() => {
    document.querySelector('main')?.style.setProperty('min-height', '5000px');
  });
  // A slow line: the page's code arrives seconds after the navigation, and it still lands there.
  await page.route(/\/assets\/AccountPage-[^/]+\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await route.continue();
  });
  await navigateWithState(page, '/account', { scrollTo: 'sessions-heading' });
  const heading = page.getByRole('heading', { name: 'Active sessions' });
  await expect(heading).toBeVisible();
  const headerHeight = (await page.getByRole('banner').boundingBox())?.height ?? 0;
  expect(headerHeight).toBeGreaterThan(90);
  await expect.poll(async () => Math.round((await heading.boundingBox())?.y ?? 0)).toBeGreaterThanOrEqual(Math.round(headerHeight) + 8);
  await expect.poll(async () => Math.round((await heading.boundingBox())?.y ?? 0)).toBeLessThanOrEqual(Math.round(headerHeight) + 16);
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
});

test('the footer shows the tenant footer logo', async ({ page, openAs }) => {
  await openAs(seedUsers.hana, '/dashboard', HARBOR_HOST);
  const footer = page.getByRole('contentinfo');
  const logo = footer.getByRole('img', { name: 'Harbor Hosting logo' });
  await expect(logo).toHaveAttribute('src', /^\/api\/tenant\/logo\/admin_logo_footer\?v=\d+$/);
  await expect.poll(() => logo.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await expect(footer).toContainText(`© ${new Date().getFullYear()} Harbor Hosting`);
});

test('the shell works by keyboard: skip link, header controls in order, menus', async ({ page, openAs }, testInfo) => {
  const phone = isPhone(testInfo.project.name);
  await openAs(seedUsers.superAdmin, '/dashboard');
  const focused = () =>
    page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.textContent?.trim() ?? '');

  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  const order: string[] = [];
  for (let i = 0; i < (phone ? 8 : 11); i++) {
    await page.keyboard.press('Tab');
    order.push(await focused());
  }
  const header = [
    'menu-toggle',
    'Berth',
    'partner-credit',
    'cart-link',
    'notification-bell',
    'language-menu',
    'profile-menu',
    'header-logout',
  ];
  expect(order.slice(0, header.length)).toEqual(header);
  if (!phone) expect(order.slice(header.length)).toEqual(['nav-home', 'domain-selector', 'nav-dashboard']);

  // The skip link jumps to the page.
  await page.keyboard.press('Shift+Tab');
  await page.getByRole('link', { name: 'Skip to content' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();

  // The profile dropdown: open, arrow through, close; the focus comes back.
  await page.getByTestId('profile-menu').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Account' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: /Two-factor authentication/ })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
  await expect(page.getByTestId('profile-menu')).toBeFocused();

  // The menu: a group opens and closes with Enter; on phones the toggle opens the drawer.
  if (phone) {
    await page.getByTestId('menu-toggle').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
  }
  const nav = await openMenu(page, phone);
  const shop = nav.getByTestId('nav-shop');
  await shop.focus();
  await page.keyboard.press('Enter');
  await expect(shop).toHaveAttribute('aria-expanded', 'true');
  // The group slides open; its first link takes the focus once it is shown, as a person sees it.
  const catalogue = nav.getByTestId('nav-shop.catalogue');
  await expect(catalogue).toBeVisible();
  await expect.poll(() => catalogue.evaluate((link) => link.getBoundingClientRect().height)).toBeGreaterThan(0);
  await page.keyboard.press('Tab');
  await expect(catalogue).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL((url) => url.pathname === '/shop');
});

test('motion follows the speeds of docs/product.md §9', async ({ page, openAs }, testInfo) => {
  test.skip(isPhone(testInfo.project.name), 'the speeds do not depend on the viewport');
  await openAs(seedUsers.superAdmin, '/dashboard');
  const variables = await page.evaluate(() => {
    const style = getComputedStyle(document.documentElement);
    return [
      '--berth-speed-fast',
      '--berth-speed',
      '--berth-speed-slow',
      '--berth-transition-short',
      '--berth-transition',
      '--berth-transition-long',
    ].map((name) => style.getPropertyValue(name).trim());
  });
  // In milliseconds, whichever way the stylesheet writes them ("200ms", ".2s").
  const ms = (value: string) => (value.endsWith('ms') ? Number(value.slice(0, -2)) : Math.round(Number(value.slice(0, -1)) * 1000));
  expect(variables.map(ms)).toEqual([200, 400, 600, 150, 300, 350]);
  // Hover feedback uses the short transition.
  const cart = page.getByTestId('cart-link');
  expect(await cart.evaluate((element) => getComputedStyle(element).transitionDuration)).toMatch(/^0\.15s/);
  // A dialog opens at the fast speed.
  await page.getByTestId('partner-credit').click();
  const dialog = page.locator('.mantine-Modal-content');
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((element) => (element as HTMLElement).style.transitionDuration)).toBe('200ms');
});
