import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';

export const screenshotsDir = path.resolve(import.meta.dirname, '../artifacts/screenshots');

/** A full-page screenshot kept as artifacts/screenshots/<project>-<name>.png for people to look at. */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<string> {
  const file = path.join(screenshotsDir, `${testInfo.project.name}-${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}
