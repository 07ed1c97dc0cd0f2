import type { Page } from '@playwright/test';
import { Accounts, uniqueToken, type Customer } from './accounts.ts';
import { test as base, expect } from './fixtures.ts';
import { startBerthServer, type AdminCredentials, type BerthServer } from './server.ts';
import { createThrowawayDatabase, type ThrowawayDatabase } from './shell-database.ts';

const REDIS_URL = process.env.E2E_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Each server runs the expiry reminders 5 s after it starts (server/src/modules/expiry/service.ts,
 * startExpiryJob), then once a day. The timer starts before the server listens, so 5 s after
 * "listening" plus a margin for the run's queries, that first run is over.
 */
const EXPIRY_FIRST_RUN_MS = 5_000;
const EXPIRY_RUN_MARGIN_MS = 1_500;
const DAY = 24 * 60 * 60 * 1000;

/** One running instance and when it started listening. */
export interface Instance extends BerthServer {
  port: number;
  listeningAt: number;
}

/**
 * Server instances on one throwaway PostgreSQL database, optionally joined through the local
 * Redis under a key prefix of their own (so nothing else on that Redis hears their events).
 */
export class Deployment {
  private readonly database: ThrowawayDatabase;
  private readonly keyPrefix = `berth-e2e-${uniqueToken()}`;
  private readonly running: BerthServer[] = [];
  private admin: AdminCredentials | undefined;
  private accountsOf: Accounts | undefined;

  constructor(database: ThrowawayDatabase) {
    this.database = database;
  }

  static async create(): Promise<Deployment> {
    return new Deployment(await createThrowawayDatabase());
  }

  /** Starts an instance (on `port`, e.g. the one of a stopped instance, or a free one). */
  async start(options: { redis: boolean; port?: number }): Promise<Instance> {
    const server = await startBerthServer({
      databaseUrl: this.database.url,
      port: options.port,
      admin: this.admin,
      env: options.redis ? { REDIS_URL, REDIS_KEY_PREFIX: this.keyPrefix } : {},
    });
    const listeningAt = Date.now();
    this.running.push(server);
    this.admin ??= server.admin;
    return { ...server, port: Number(new URL(server.baseURL).port), listeningAt };
  }

  /** The super admin's API on the first instance (`accounts.customer()` and so on). */
  accounts(): Accounts {
    const first = this.running[0];
    if (!first || !this.admin) throw new Error('start an instance first');
    this.accountsOf ??= new Accounts(first.baseURL, this.admin);
    return this.accountsOf;
  }

  /** Waits until the instance's first expiry run is over: nothing made after it is reminded by it. */
  async afterFirstExpiryRun(instance: Instance): Promise<void> {
    const wait = instance.listeningAt + EXPIRY_FIRST_RUN_MS + EXPIRY_RUN_MARGIN_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }

  /**
   * A domain of `owner` that expires in 5 days, made by the super admin through `instance`: the
   * next expiry run (of any instance) reminds its owner, in the panel and by mail.
   */
  async expiringDomain(instance: Instance, owner: Customer): Promise<string> {
    const api = await this.accounts().signedIn(this.admin as AdminCredentials);
    const name = `e2e-rt-${uniqueToken()}.test`;
    const answer = await api.post(`${instance.baseURL}/api/host/domain`, {
      data: { name, owner_id: owner.id, expire_at: new Date(Date.now() + 5 * DAY).toISOString() },
    });
    expect(answer.status(), `POST /api/host/domain: ${await answer.text()}`).toBe(201);
    return name;
  }

  async dispose(): Promise<void> {
    await this.accountsOf?.dispose();
    await Promise.allSettled(this.running.map((server) => server.stop()));
    await this.database.drop();
  }
}

/** The specs' `test` with a deployment of its own per test. */
export const test = base.extend<{ deployment: Deployment }>({
  deployment: async ({ context }, use) => {
    const deployment = await Deployment.create();
    try {
      await use(deployment);
    } finally {
      // Pages first: a page whose server goes away tries to reconnect and logs console errors.
      for (const page of context.pages()) await page.close();
      await deployment.dispose();
    }
  },
});

/** Signs the page's browser context in on `origin` through the API (its cookie jar is the page's). */
export async function signInPage(page: Page, origin: string, user: Customer): Promise<void> {
  const answer = await page.request.post(`${origin}/api/login`, { data: { email: user.email, password: user.password, remember: true } });
  expect(answer.status(), `POST /api/login: ${await answer.text()}`).toBe(200);
}

/**
 * Watches the page's socket.io connections without touching them: how many are open and how many
 * of those had both private channels accepted (acks `43<id>[{"ok":true}]`).
 */
export function watchRealtime(page: Page) {
  const connections: { accepted: number; open: boolean }[] = [];
  page.on('websocket', (socket) => {
    if (!socket.url().includes('/socket.io/')) return;
    const connection = { accepted: 0, open: true };
    connections.push(connection);
    socket.on('framereceived', ({ payload }) => {
      if (/^43\d+\[\{"ok":true\}\]$/.test(String(payload))) connection.accepted++;
    });
    socket.on('close', () => {
      connection.open = false;
    });
  });
  return {
    /** Connections opened so far, including closed ones. */
    opened: () => connections.length,
    open: () => connections.filter((connection) => connection.open).length,
    /** Open connections subscribed to the user's notifications and cart channels. */
    subscribed: () => connections.filter((connection) => connection.open && connection.accepted >= 2).length,
  };
}

export { expect };
