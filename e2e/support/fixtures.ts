import { test as base, expect, type ConsoleMessage } from '@playwright/test';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Accounts } from './accounts.ts';
import { startDnsWorld, type DnsWorld } from '../../server/test/dns-world.ts';
import { Mailbox } from './mailbox.ts';
import { repoRoot, startBerthServer, type BerthServer } from './server.ts';

export interface BerthTestOptions {
  /** Console errors a test expects; anything else logged as an error fails the test. */
  allowedConsoleErrors: RegExp[];
  /**
   * page.goto and page.reload return once the app has taken over a signed-in page the server
   * rendered (server/src/http/signed-in-page.ts): until then that page is inert, for a visitor as
   * for a test. False for the tests of that page itself.
   */
  waitForApp: boolean;
}

interface BerthTestFixtures extends BerthTestOptions {
  /** Attaches the server's output and the mails it sent to a failed test; no value of its own. */
  serverLogOnFailure: void;
  /** Customers and domain users made for this test through the API, as the super admin. */
  accounts: Accounts;
}

interface BerthWorkerOptions {
  /**
   * Where the worker's server delivers mail: 'smtp' (default) to `mailbox`, or 'outbox' (no
   * SMTP_URL: the outbox table and the Outbox page). A file that needs the outbox says
   * `test.use({ mailDelivery: 'outbox' })` and gets workers of its own.
   */
  mailDelivery: 'smtp' | 'outbox';
}

interface BerthWorkerFixtures extends BerthWorkerOptions {
  /** The SMTP receiver this worker's server sends every mail to (unless mailDelivery is 'outbox'). */
  mailbox: Mailbox;
  /** The public DNS this worker's server looks customers' domain proofs up in (DNS_RESOLVERS). */
  dnsWorld: DnsWorld;
  /** A server of this worker's own, on a fresh database, sending mail as mailDelivery says. */
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
  mailDelivery: ['smtp', { scope: 'worker', option: true }],

  mailbox: [
    // Playwright reads a fixture's dependencies from its first parameter, so it must be a pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const mailbox = await Mailbox.start();
      try {
        await use(mailbox);
      } finally {
        await mailbox.stop();
      }
    },
    { scope: 'worker' },
  ],

  dnsWorld: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const world = await startDnsWorld();
      try {
        await use(world);
      } finally {
        await world.close();
      }
    },
    { scope: 'worker' },
  ],

  berth: [
    async ({ mailbox, mailDelivery, dnsWorld }, use) => {
      // The server reads index.html once at start: without a build every page would be a 503.
      if (!existsSync(path.join(repoRoot, 'web/dist/index.html'))) {
        throw new Error('web/dist/index.html is missing: run `npm run build` before the e2e tests.');
      }
      // By default mail goes over real SMTP to the worker's receiver, not to the outbox table.
      const server = await startBerthServer({
        env: {
          DNS_RESOLVERS: dnsWorld.address,
          // Webhook receivers in the specs listen on loopback, which the address guard refuses by default.
          WEBHOOK_ALLOWED_RANGES: '127.0.0.1/32',
          ...(mailDelivery === 'smtp' ? { SMTP_URL: mailbox.url } : {}),
        },
      });
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
    async ({ berth, mailbox }, use, testInfo) => {
      const from = berth.output().length;
      const firstMail = mailbox.all().length;
      await use();
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('server output', { body: berth.output().slice(from), contentType: 'text/plain' });
        const mails = mailbox
          .all()
          .slice(firstMail)
          .map((mail) => `#${mail.seq} to ${mail.to.join(', ')}\nSubject: ${mail.subject}\n\n${mail.text}`);
        if (mails.length) await testInfo.attach('mails received', { body: mails.join('\n\n----\n\n'), contentType: 'text/plain' });
      }
    },
    { auto: true },
  ],

  accounts: async ({ berth }, use) => {
    const accounts = new Accounts(berth.baseURL, berth.admin);
    try {
      await use(accounts);
    } finally {
      await accounts.dispose();
    }
  },

  allowedConsoleErrors: [[], { option: true }],
  waitForApp: [true, { option: true }],

  page: async ({ page, waitForApp }, use) => {
    if (waitForApp) {
      const tookOver = () => page.locator('#prerender[data-state]').waitFor({ state: 'detached', timeout: 20_000 });
      const goto = page.goto.bind(page);
      const reload = page.reload.bind(page);
      page.goto = async (...args) => {
        const answer = await goto(...args);
        await tookOver();
        return answer;
      };
      page.reload = async (...args) => {
        const answer = await reload(...args);
        await tookOver();
        return answer;
      };
    }
    await use(page);
  },

  // docs/architecture.md: any console.error or uncaught exception in the page fails the test.
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
