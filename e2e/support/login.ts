import { expect, type Page } from '@playwright/test';

/** A URL predicate for `toHaveURL`: the path only, whatever the query. */
export const onPath = (pathname: string) => (url: URL) => url.pathname === pathname;

/** The fields of /login by their accessible names. */
export const loginForm = (page: Page) => ({
  email: page.getByLabel('E-mail or uid', { exact: true }),
  password: page.getByLabel('Password', { exact: true }),
  remember: page.getByRole('checkbox', { name: 'Remember me' }),
  submit: page.getByRole('button', { name: 'Log in', exact: true }),
});

/**
 * The first login step through the screen (for the specs of the login screens themselves);
 * where it goes next (shell or /login2fa) is the caller's to check.
 */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  if (!onPath('/login')(new URL(page.url()))) await page.goto('/login');
  const form = loginForm(page);
  // The prerendered screen asks for the app once it is used, and the app takes what was typed into
  // it (login.spec.ts tests that hand-over with the scripts held back). Here the app is awaited
  // first: on a loaded machine it may arrive in the middle of a fill.
  await form.email.focus();
  await expect(page.locator('#prerender')).toHaveCount(0, { timeout: 30_000 });
  await form.email.fill(email);
  await form.password.fill(password);
  await form.submit.click();
}

/** The shell's user name in the header: signed in and the shell rendered. */
export const shellUserName = (page: Page) => page.getByTestId('shell-user-name');

/**
 * Ends the page's session (POST /api/logout with the page's cookies) and opens /login. Through
 * the API rather than the shell's button: the shell is not what these specs are about.
 */
export async function logOut(page: Page): Promise<void> {
  const answer = await page.request.post('/api/logout');
  expect(answer.status(), 'POST /api/logout').toBe(200);
  expect((await page.request.get('/api/user')).status(), 'signed out').toBe(401);
  await page.goto('/login');
  await expect(loginForm(page).email).toBeVisible();
}
