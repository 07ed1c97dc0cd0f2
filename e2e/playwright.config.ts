import { defineConfig, devices } from '@playwright/test';

const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The specs whose assertions depend on the viewport. */
const PHONE_SPECS = [
  'shell-layout',
  'shell-menu',
  'shell-domains',
  'shell-a11y',
  'shell-header',
  'shell-language',
  'demo',
  'domains',
  'services',
  'shop-catalogue',
  'login',
  'signed-in-page',
].map((name) => `${name}.spec.ts`);

/**
 * Debian's Chromium, never a downloaded browser. Each worker starts its own Berth server on a
 * fresh database (support/fixtures.ts), so there is no webServer entry here; the web app must be
 * built first (`npm run build`).
 */
export default defineConfig({
  testDir: 'specs',
  outputDir: 'artifacts/results',
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 2,
  // A whole journey (shop, daemons, mail, the browser) took 40-60 s on an ordinary day and up to
  // twice that when this 2-core machine was slow (a CI run where Vitest took 1,909 s instead of 980):
  // the waits inside each test keep their own limits, this only bounds the journey.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { outputFolder: 'artifacts/report', open: 'never' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: '/usr/bin/chromium', args: chromiumFlags },
    locale: 'en-US',
    screenshot: 'only-on-failure',
    // CI keeps nothing of a run but its printed log, so a trace recorded there is read by nobody, and
    // recording one for every test is the costliest thing the specs do beside the pages themselves:
    // dns and customers took 278 s of test time with traces and 194 s without on this 2-core machine.
    // Locally a failed test keeps its trace (`--trace retain-on-failure` brings it back under CI=1).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
  },
  projects: [
    {
      name: 'desktop',
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      name: 'phone',
      // CI runs on phones only the specs that test layout (the shell, the selector, the brand, the
      // pages with a phone-only arrangement); `E2E_PHONE=all` runs every spec there, for the
      // screenshots of a screen one has changed.
      testMatch: process.env.E2E_PHONE === 'all' ? undefined : PHONE_SPECS,
      use: {
        userAgent: devices['Pixel 7'].userAgent,
        viewport: { width: 375, height: 812 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
      },
    },
  ],
});
