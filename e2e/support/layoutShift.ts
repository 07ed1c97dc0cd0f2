import type { Page } from '@playwright/test';

/**
 * Counts what the browser reports as layout shifts (what Lighthouse sums as CLS) from the first
 * paint of the next navigation on; `layoutShift` reads the sum.
 */
export async function countLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const counted = window as unknown as { layoutShift: number };
    counted.layoutShift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) counted.layoutShift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

export const layoutShift = (page: Page): Promise<number> => page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift);

/** Answers to requests matching `url` wait `ms`, as on a slow network; returns how many were held. */
export async function holdAnswers(page: Page, url: string | RegExp, ms: number): Promise<{ held: number }> {
  const counter = { held: 0 };
  await page.route(url, async (route) => {
    counter.held++;
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
  return counter;
}

/** From now on: what moves later counts, what moved so far does not. */
export const resetLayoutShift = (page: Page): Promise<void> =>
  page.evaluate(() => {
    (window as unknown as { layoutShift: number }).layoutShift = 0;
  });

/**
 * Opens `path` through the app's router, as a visitor who follows a link does, but with no input
 * (shifts right after input do not count). A page load would not do for what a page shows while
 * its answers load: the server renders a signed-in page with its answers in it
 * (server/src/http/signed-in-page.ts).
 */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.locator('#prerender').waitFor({ state: 'detached' });
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
}
