import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]] as const) {
  const page = await browser.newPage({ viewport });
  await page.route('**/*.js', (route) => route.abort());
  await page.goto('http://localhost:3900/login');
  await page.waitForTimeout(500);
  await page.screenshot({ path: `/tmp/boot-${name}.png` });
  await page.close();
}
await browser.close();
