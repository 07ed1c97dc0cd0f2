import { test as base, expect, type ConsoleMessage } from '@playwright/test';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot, startBerthServer, type BerthServer } from './server.ts';

export interface BerthTestOptions {
  /** Console errors a test expects; anything else logged as an error fails the test. */
  allowedConsoleErrors: RegExp[];
}

interface BerthTestFixtures extends BerthTestOptions {
  /** Attaches the server's output to a failed test; no value of its own. */
  serverLogOnFailure: void;
}

interface BerthWorkerFixtures {
  /** A server of this worker's own, on a fresh database. */
  berth: BerthServer;
}

/**
 * The browser logs every non-2xx fetch as a console error. An API answer the app expects and
 * handles is not an error of the page: 401 from /api/user when nobody is signed in, 422 field
 * errors. Anything else (5xx, a missing asset) still fails the test.
 */
const EXPECTED_API_ANSWERS = /^Failed to load resource: the server responded with a status of (401|422) /;

const isExpectedApiAnswer = (message: ConsoleMessage): boolean =>
  EXPECTED_API_ANSWERS.test(message.text()) && new URL(message.location().url || 'about:blank', 'http://x').pathname.startsWith('/api/');

export const test = base.extend<BerthTestFixtures, BerthWorkerFixtures>({
  berth: [
    // Playwright reads a fixture's dependencies from its first parameter, so it must be a pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      // The server reads index.html once at start: without a build every page would be a 503.
      if (!existsSync(path.join(repoRoot, 'web/dist/index.html'))) {
        throw new Error('web/dist/index.html is missing: run `npm run build` before the e2e tests.');
      }
      const server = await startBerthServer();
      try {
        await use(server);
      } finally {
        await server.stop();
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],

  baseURL: async ({ berth }, use) => {
    await use(berth.baseURL);
  },

  serverLogOnFailure: [
    async ({ berth }, use, testInfo) => {
      const from = berth.output().length;
      await use();
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('server output', { body: berth.output().slice(from), contentType: 'text/plain' });
      }
    },
    { auto: true },
  ],

  allowedConsoleErrors: [[], { option: true }],

  // DESIGN.md: any console.error or uncaught exception in the page fails the test.
  context: async ({ context, allowedConsoleErrors }, use) => {
    const problems: string[] = [];
    context.on('console', (message) => {
      if (message.type() !== 'error' || isExpectedApiAnswer(message)) return;
      if (allowedConsoleErrors.some((pattern) => pattern.test(message.text()))) return;
      const where = message.location().url ? ` (${message.location().url}:${message.location().lineNumber})` : '';
      problems.push(`console.error: ${message.text()}${where}`);
    });
    context.on('weberror', (webError) => {
      const error = webError.error();
      problems.push(`pageerror: ${error.stack ?? error.message}`);
    });
    await use(context);
    expect(problems, 'the page logged errors').toEqual([]);
  },
});

export { expect };
