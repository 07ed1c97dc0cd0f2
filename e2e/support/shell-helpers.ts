import type { Page } from '@playwright/test';

/**
 * Navigates inside the app carrying navigation state, as a React Router `navigate(path, { state })`
 * does: two entries in the router's own history format (`{ usr, key, idx }`), then back to the
 * first, so the router takes it on popstate. No page offers these navigations yet (a password
 * reset or a registration lands with a message; nothing scrolls to an element yet).
 */
export async function navigateWithState(page: Page, path: string, state: Record<string, unknown>): Promise<void> {
  await page.evaluate(
    ({ path: to, state: usr }) => {
      const current = window.history.state as { idx?: number } | null;
      const idx = (current?.idx ?? 0) + 1;
      const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
      window.history.pushState({ usr, key: `e2e${stamp}`, idx }, '', to);
      window.history.pushState({ usr: null, key: `e2f${stamp}`, idx: idx + 1 }, '', to);
      window.history.back();
    },
    { path, state },
  );
}

export const isPhone = (projectName: string): boolean => projectName === 'phone';
