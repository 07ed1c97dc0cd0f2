import type { Page } from '@playwright/test';

/**
 * Holds the app's scripts back, as a slow network would, until `release()`: all but the page's
 * own small boot script (`boot`: login-boot or page-boot), which asks for them.
 */
export async function holdScripts(page: Page, boot: 'login-boot' | 'page-boot'): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/admin/assets/*.js', async (route) => {
    if (!route.request().url().includes(`/${boot}-`)) await released;
    await route.continue();
  });
  return release;
}
