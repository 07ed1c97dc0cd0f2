import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';
import { blockingAxeViolations, type AxeScope } from './accessibility.ts';
import { keepScreenshot } from './screenshots.ts';
import { waitUntilSettled } from './settle.ts';

/**
 * The screen as it is now, once settled: kept as artifacts/screenshots/<project>-<name>.png and
 * checked with axe. A serious or critical violation fails the test at its end (a soft
 * assertion), so one run reports every screen that has one. Inner pages of the shell pass
 * `{ include: 'main' }`: the shell's own frame is the shell specs' to check.
 */
export async function reviewScreen(page: Page, testInfo: TestInfo, name: string, scope: AxeScope = {}): Promise<void> {
  await waitUntilSettled(page);
  // A full-page screenshot of a scrolled page draws the sticky header where the viewport was.
  await expect
    .poll(() =>
      page.evaluate(() => {
        window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
        return window.scrollY;
      }),
    )
    .toBe(0);
  await keepScreenshot(page, testInfo, name);
  const blocking = await blockingAxeViolations(page, testInfo, name, scope);
  expect.soft(blocking, `serious or critical axe violations on "${name}"`).toEqual([]);
}

/** The page's clock (faked by `page.clock.install()`), in ms. */
export const pageNow = (page: Page): Promise<number> => page.evaluate(() => Date.now());

/**
 * Checks that `message`, on screen since `shownAt` (pageNow when it appeared), stays for
 * `lifetimeMs` and then goes. Needs `page.clock.install()` before the page loaded; the time a
 * test spent since `shownAt` (screenshots, axe) is taken into account.
 */
export async function expectShownFor(page: Page, message: Locator, shownAt: number, lifetimeMs: number): Promise<void> {
  const margin = 1_000;
  const elapsed = (await pageNow(page)) - shownAt;
  expect(elapsed, 'too slow to check the lifetime of the message').toBeLessThan(lifetimeMs - margin);
  await page.clock.fastForward(lifetimeMs - margin - elapsed);
  await expect(message, `still shown ${margin} ms before its end`).toBeVisible();
  await page.clock.fastForward(margin);
  await expect(message, `gone after ${lifetimeMs} ms`).toBeHidden();
}
