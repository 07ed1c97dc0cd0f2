import type { Page } from '@playwright/test';
import { test as base, expect } from './fixtures.ts';
import { startSeededServer, type SeededServer } from './shell-server.ts';
import { signIn } from './shell-session.ts';

export interface ShellWorkerFixtures {
  /** This worker's server on a seeded data directory (support/shell-seed.ts). */
  seeded: SeededServer;
}

export interface ShellTestFixtures {
  /** Signs `email` in on `host` (default: tenant 1 at the loopback address) and opens `path`. */
  openAs: (email: string, path?: string, host?: string) => Promise<string>;
}

/** The shell specs' `test`: the common fixtures plus a seeded server and API sign-in. */
export const test = base.extend<ShellTestFixtures, ShellWorkerFixtures>({
  seeded: [
    // Playwright reads a fixture's dependencies from its first parameter, so it must be a pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startSeededServer();
      try {
        await use(server);
      } finally {
        await server.stop();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],

  openAs: async ({ page, seeded }, use) => {
    await use(async (email, path = '/dashboard', host) => {
      const origin = host ? seeded.urlOf(host) : seeded.baseURL;
      await signIn(page.context(), origin, email);
      await page.goto(`${origin}${path}`);
      await expect(page.getByTestId('shell-user-name')).toBeAttached();
      return origin;
    });
  },
});

/**
 * The left menu (in any language): beside the page on wide screens; on phones in the drawer,
 * which this opens first.
 */
export async function openMenu(page: Page, isPhone: boolean) {
  const nav = page.locator('nav#shell-navigation');
  if (isPhone) {
    // A navigation closes the drawer, but the URL changes a moment before React renders that:
    // let two frames pass so aria-expanded tells the truth.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const toggle = page.getByTestId('menu-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') {
      // A drawer that is still sliding shut (after a navigation) has its overlay over the toggle.
      await expect(nav).toHaveCount(0);
      await toggle.click();
      // The drawer moves the focus into itself once it has slid in; wait for that, so it does
      // not take the focus from whatever the test does next.
      await expect
        .poll(() =>
          page.evaluate(
            () => document.activeElement?.closest('[role="dialog"]')?.contains(document.getElementById('shell-navigation')) ?? false,
          ),
        )
        .toBe(true);
    }
  }
  await expect(nav).toBeVisible();
  return nav;
}

export { expect };
