import { expect, type Page } from '@playwright/test';

/**
 * Waits until the page has stopped loading what it shows: no spinner left (every spinner in the
 * web app is Mantine's Loader; the lazy routes' fallbacks are also role="status" "Loading…") and
 * fonts ready. Screenshots and axe need the finished page, not its loading state.
 */
export async function waitUntilSettled(page: Page): Promise<void> {
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);
  await expect(page.getByRole('status', { name: 'Loading…' })).toHaveCount(0);
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
}
