import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { blockingAxeViolations } from '../support/accessibility.ts';
import { keepScreenshot } from '../support/screenshots.ts';
import { waitUntilSettled } from '../support/settle.ts';
import type { AdminCredentials } from '../support/server.ts';
import { holdScripts } from '../support/holdScripts.ts';

// The tests of the login screen itself go through the screen; every other spec should create
// its session through a fixture instead (docs/architecture.md).

const onPath = (pathname: string) => (url: URL) => url.pathname === pathname;

const loginForm = (page: Page) => ({
  email: page.getByLabel('E-mail or uid', { exact: true }),
  password: page.getByLabel('Password', { exact: true }),
  remember: page.getByRole('checkbox', { name: 'Remember me' }),
  submit: page.getByRole('button', { name: 'Log in' }),
});

async function logIn(page: Page, admin: AdminCredentials): Promise<void> {
  const form = loginForm(page);
  await form.email.fill(admin.email);
  await form.password.fill(admin.password);
  await expect(form.remember).toBeChecked();
  await form.submit.click();
  await expect(page.getByTestId('shell-user-name')).toHaveText('Super Admin');
}

test('a visitor is sent to /login, logs in with the printed credentials, stays in on reload and logs out', async ({ page, berth }) => {
  await page.goto('/');
  await expect(page).toHaveURL(onPath('/login'));
  await expect(loginForm(page).remember).toBeChecked();

  await logIn(page, berth.admin);
  await expect(page).not.toHaveURL(onPath('/login'));

  const session = (await page.context().cookies()).find((cookie) => cookie.name === 'berth_session');
  expect(session?.httpOnly, 'the session cookie is httpOnly').toBe(true);
  expect(session?.expires ?? -1, '"Remember me" makes the cookie outlive the browser').toBeGreaterThan(Date.now() / 1000 + 24 * 3600);

  await page.reload();
  await expect(page.getByTestId('shell-user-name')).toHaveText('Super Admin');
  await expect(page).not.toHaveURL(onPath('/login'));

  // Signed in, /login has nothing to offer: it goes on to the dashboard instead of showing the form.
  await page.goto('/login');
  await expect(page).toHaveURL(onPath('/dashboard'));
  await expect(page.getByTestId('shell-user-name')).toHaveText('Super Admin');

  await page.getByRole('banner').getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(onPath('/login'));
  await expect(loginForm(page).email).toBeVisible();
  const answer = await page.request.get('/api/user');
  expect(answer.status()).toBe(401);
});

test('on a slow network the login form is painted and takes input before its scripts arrive; what was typed and sent is the app’s', async ({
  page,
  berth,
}, testInfo) => {
  const release = await holdScripts(page, 'login-boot');
  await page.goto('/login');
  const form = loginForm(page);
  await expect(page.getByRole('heading', { name: 'Log in to your account' })).toBeVisible();
  await expect(page.getByText('Welcome back. Enter your details to manage your hosting and domains.')).toBeVisible();
  // The host's tenant is in the page (its name in the brand and the footer), not a placeholder.
  await expect(page.getByText(`© ${new Date().getFullYear()} Berth`)).toBeVisible();
  await expect(form.submit).toBeVisible();
  await expect(page.locator('#prerender')).not.toHaveAttribute('inert');
  await keepScreenshot(page, testInfo, 'login-before-scripts');

  await form.email.fill(berth.admin.email);
  await form.password.fill(berth.admin.password);
  await form.submit.click();
  // Sent before the app is here: nothing leaves the page (no password in an address), the app sends it.
  await expect(page).toHaveURL((url) => url.pathname === '/login' && url.search === '');
  release();
  await expect(page.getByTestId('shell-user-name')).toHaveText('Super Admin');
  await expect(page.locator('#prerender')).toHaveCount(0);
});

test('/login asks for the app’s scripts only once the visitor starts using the page, and hands over what was typed', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/login');
  await page.waitForLoadState('networkidle');
  expect(scripts).toEqual([expect.stringMatching(/\/login-boot-[\w-]+\.js$/)]);

  const email = page.getByLabel('E-mail or uid', { exact: true });
  await email.focus();
  await page.keyboard.type('someone@exam');
  await expect.poll(() => scripts.length).toBeGreaterThan(1);
  await expect(page.locator('#prerender')).toHaveCount(0);
  await page.keyboard.type('ple.com');
  // One field, the app's, with every key typed before and after it took over, and the focus in it.
  await expect(email).toHaveValue('someone@example.com');
  await expect(email).toBeFocused();
});

test("the page painted before the scripts speaks the browser's language, or the one picked on this device", async ({
  page,
  browser,
  baseURL,
}) => {
  const german = await browser.newContext({ baseURL, locale: 'de-DE', javaScriptEnabled: false });
  try {
    const visitor = await german.newPage();
    await visitor.goto('/login');
    await expect(visitor.getByRole('heading', { name: 'Bei Ihrem Konto anmelden' })).toBeVisible();
    await expect(visitor.getByLabel('E-Mail oder UID', { exact: true })).toBeVisible();
    await expect(visitor.locator('html')).toHaveAttribute('lang', 'de');
  } finally {
    await german.close();
  }

  // An English browser whose visitor picked Czech: the next visit starts in Czech before any script.
  await page.goto('/login');
  await page.getByRole('combobox', { name: 'Language' }).selectOption('cs');
  await expect(page.locator('html')).toHaveAttribute('lang', 'cs');
  await holdScripts(page, 'login-boot');
  await page.reload();
  await expect(page.locator('#prerender')).toHaveAttribute('data-language', 'cs');
  await expect(page.locator('html')).toHaveAttribute('lang', 'cs');
});

test('a wrong password shows the error under the e-mail field', async ({ page, berth }) => {
  await page.goto('/login');
  const form = loginForm(page);
  await form.email.fill(berth.admin.email);
  await form.password.fill(`${berth.admin.password}-wrong`);
  // The answer itself first: a failure then says whether the form was sent and what came back.
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/login');
  await form.submit.click();
  expect((await answer).status(), 'the sign-in is refused as a field error').toBe(422);

  const error = page.getByText('These credentials do not match our records.');
  await expect(error).toBeVisible();
  await expect(form.email).toHaveAttribute('aria-invalid', 'true');
  await expect(form.email, 'the error is announced with the e-mail field').toHaveAccessibleDescription(
    /These credentials do not match our records\./,
  );
  const fieldBox = await form.email.boundingBox();
  const errorBox = await error.boundingBox();
  expect(fieldBox && errorBox && errorBox.y >= fieldBox.y + fieldBox.height - 1, 'the error sits under the field').toBe(true);

  await expect(page).toHaveURL(onPath('/login'));
  await expect(form.email).toHaveValue(berth.admin.email);
  expect((await page.request.get('/api/user')).status()).toBe(401);
});

/** What the app's login screen says after the press, in the language it is in. */
interface AppLoginScreen {
  emailLabel: string;
  failed: string;
}
const ENGLISH_LOGIN: AppLoginScreen = { emailLabel: 'E-mail or uid', failed: 'These credentials do not match our records.' };

/**
 * Presses "Log in" on the prerendered page with a wrong password while the app's scripts are held,
 * lets them through, checks the page stays while pressed, and releases: the form must be sent.
 */
async function logInPressedAsTheAppArrives(
  page: Page,
  admin: AdminCredentials,
  before?: () => Promise<void>,
  app: AppLoginScreen = ENGLISH_LOGIN,
): Promise<void> {
  const release = await holdScripts(page, 'login-boot');
  await page.goto('/login');
  await before?.();
  const form = loginForm(page);
  await form.email.fill(admin.email);
  await form.password.fill(`${admin.password}-wrong`);
  const button = await form.submit.boundingBox();
  expect(button).not.toBeNull();
  await page.mouse.move(button!.x + button!.width / 2, button!.y + button!.height / 2);
  await page.mouse.down();

  // The app arrives and renders its own screen under the prerendered one, which stays while pressed.
  release();
  await expect(page.locator('#root form')).toHaveCount(1);
  await expect(page.locator('#prerender')).toHaveCount(1);

  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/login');
  await page.mouse.up();
  expect((await answer).status(), 'the press sent the form').toBe(422);
  // The app adopts the page the press was made on.
  await expect(page.getByText(app.failed)).toBeVisible();
  await expect(page.locator('#prerender')).toHaveCount(0);
  await expect(page.getByLabel(app.emailLabel, { exact: true })).toHaveValue(admin.email);
}

test('a button held down as the app arrives keeps its page until released: the click goes through', async ({ page, berth }) => {
  await logInPressedAsTheAppArrives(page, berth.admin);
});

test('a button held down as the app arrives in another language the visitor picked before: the click goes through', async ({
  page,
  berth,
}) => {
  // The server prerenders /login in English; this browser picked German on an earlier visit (no
  // cookie told the server). The English page stays while pressed; the app answers in German: the
  // page's picker, untouched, still showed English, which was no choice of the visitor's.
  await page.addInitScript(() => window.localStorage.setItem('berth.language', 'de'));
  await logInPressedAsTheAppArrives(page, berth.admin, () => expect(page.locator('#prerender')).toHaveAttribute('data-language', 'en'), {
    emailLabel: 'E-Mail oder UID',
    failed: 'Diese Zugangsdaten stimmen nicht mit unseren Daten überein.',
  });
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
});

test('what is typed into the page painted in another language than the one picked on this device is kept when the app takes over', async ({
  page,
}, testInfo) => {
  await page.addInitScript(() => window.localStorage.setItem('berth.language', 'de'));
  await page.goto('/login');
  await expect(page.locator('#prerender')).toHaveAttribute('data-language', 'en');
  await expect(page.locator('#prerender')).not.toHaveAttribute('inert');
  // Typing asks for the app's scripts; the app's German screen takes the English one's place.
  await page.getByLabel('E-mail or uid', { exact: true }).focus();
  await page.keyboard.type('someone@exam');
  await expect(page.locator('#prerender')).toHaveCount(0);
  await page.keyboard.type('ple.com');
  const email = page.getByLabel('E-Mail oder UID', { exact: true });
  await expect(email).toHaveValue('someone@example.com');
  await expect(email).toBeFocused();
  await expect(page.getByRole('heading', { name: 'Bei Ihrem Konto anmelden' })).toBeVisible();
  // The longest label of the screen in German wraps on a phone instead of being cut off.
  const otpLabel = page.getByRole('link', { name: 'Mit einem Einmalcode anmelden' }).locator('.mantine-Button-label');
  expect(await otpLabel.evaluate((label) => label.scrollWidth - label.clientWidth)).toBeLessThanOrEqual(0);
  await keepScreenshot(page, testInfo, 'login-taken-over-in-german');
});

test('/login/:email prefills the e-mail field', async ({ page }) => {
  await page.goto('/login/admin%40localhost');
  await expect(loginForm(page).email).toHaveValue('admin@localhost');
});

test('tenant 1 offers the one-time password login', async ({ page }) => {
  await page.goto('/login');
  const link = page.getByRole('link', { name: /one-time/i });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('href', '/password/otp');
});

test('the login page and the shell have no serious accessibility violations', async ({ page, berth }, testInfo) => {
  await page.goto('/login');
  await expect(loginForm(page).submit).toBeVisible();
  await waitUntilSettled(page);
  await keepScreenshot(page, testInfo, 'login');
  const onLogin = await blockingAxeViolations(page, testInfo, 'login');

  await logIn(page, berth.admin);
  await waitUntilSettled(page);
  await keepScreenshot(page, testInfo, 'shell');
  const onShell = await blockingAxeViolations(page, testInfo, 'shell');

  expect(onLogin, 'serious or critical axe violations on /login').toEqual([]);
  expect(onShell, 'serious or critical axe violations in the shell').toEqual([]);
});
