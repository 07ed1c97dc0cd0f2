import { randomBytes } from 'node:crypto';
import { expect, request, type APIRequestContext, type APIResponse, type Page } from '@playwright/test';
import { generate } from 'otplib';
import type { AdminCredentials } from './server.ts';

/** A customer account of tenant 1 (verified e-mail, no second factor) made for one test. */
export interface Customer {
  id: number;
  email: string;
  password: string;
  givenName: string;
  surname: string;
}

/** A mailbox/FTP account of a domain, for /change-password. */
export interface DomainUser {
  domainId: number;
  domain: string;
  uid: string;
  password: string;
}

/** Random enough to be unique per test and never a "common" password. */
export const uniqueToken = (bytes = 4): string => randomBytes(bytes).toString('hex');

/** A password the server's policy accepts: 15+ characters, not common, not the login. */
export const newPassword = (): string => `Harbor-${uniqueToken(6)}-lantern`;

export const uniqueEmail = (what: string): string => `e2e-${what}-${uniqueToken()}@example.com`;

async function expectStatus(answer: APIResponse, status: number, what: string): Promise<void> {
  if (answer.status() === status) return;
  throw new Error(`${what}: expected HTTP ${status}, got ${answer.status()}: ${await answer.text()}`);
}

async function dataOf<T>(answer: APIResponse, status: number, what: string): Promise<T> {
  await expectStatus(answer, status, what);
  return ((await answer.json()) as { data: T }).data;
}

/**
 * An API client of the test's server signed in as `credentials` (its own cookie jar, separate
 * from the page's). Answers a second-factor login with `totpSecret` when given.
 */
export async function signedInApi(
  baseURL: string,
  credentials: AdminCredentials,
  options: { totpSecret?: string } = {},
): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL });
  const login = await dataOf<{ status?: string }>(
    await api.post('/api/login', { data: { email: credentials.email, password: credentials.password, remember: false } }),
    200,
    `POST /api/login as ${credentials.email}`,
  );
  if (login.status === 'two_factor_required') {
    if (!options.totpSecret) throw new Error(`${credentials.email} has two-factor authentication on; pass its secret`);
    const code = await generate({ secret: options.totpSecret, epoch: nextTotpEpoch() });
    await expectStatus(await api.post('/api/login2fa', { data: { code } }), 200, 'POST /api/login2fa');
  }
  return api;
}

/**
 * The server accepts a TOTP code of the previous, current or next 30-second step, each step
 * once per user. A code for the next step is therefore always fresh after an earlier code of
 * this step, without waiting for the clock.
 */
export const nextTotpEpoch = (): number => Math.floor(Date.now() / 1000) + 30;

/** A code that matches none of the steps the server would accept right now. */
export async function wrongTotpCode(secret: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const valid = new Set(await Promise.all([-60, -30, 0, 30, 60].map((offset) => generate({ secret, epoch: now + offset }))));
  for (let candidate = 0; ; candidate++) {
    const code = String((candidate * 111_111) % 1_000_000).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

/**
 * Signs the page's browser in as `user` through the API (the page's request context shares its
 * cookies), for specs that are not about the login screen.
 */
/** Adds a mailbox & FTP user on the accounts page the browser is on, as a user types it. */
export async function addAccountInBrowser(page: Page, uid: string, password: string): Promise<void> {
  await page.getByRole('button', { name: 'Add account' }).first().click();
  const create = page.getByRole('dialog');
  await create.getByLabel('Login (uid)', { exact: true }).fill(uid);
  await create.getByLabel('Password', { exact: true }).fill(password);
  await create.getByLabel('Confirm password', { exact: true }).fill(password);
  await create.getByRole('button', { name: 'Add account' }).click();
  await expect(create).toBeHidden();
}

export async function signInPage(page: Page, user: { email: string; password: string }): Promise<void> {
  await expectStatus(
    await page.request.post('/api/login', { data: { email: user.email, password: user.password, remember: false } }),
    200,
    `POST /api/login as ${user.email}`,
  );
}

/** What a test needs to set up through the API as the super admin (customers, domains). */
export class Accounts {
  private readonly baseURL: string;
  private readonly admin: AdminCredentials;
  private adminApi: Promise<APIRequestContext> | undefined;
  private readonly clients: Promise<APIRequestContext>[] = [];

  constructor(baseURL: string, admin: AdminCredentials) {
    this.baseURL = baseURL;
    this.admin = admin;
  }

  private asAdmin(): Promise<APIRequestContext> {
    this.adminApi ??= this.track(signedInApi(this.baseURL, this.admin));
    return this.adminApi;
  }

  private track(client: Promise<APIRequestContext>): Promise<APIRequestContext> {
    this.clients.push(client);
    return client;
  }

  /** A new customer of tenant 1 (or of `tenantId`) with a verified e-mail address, created by the super admin. */
  async customer(what = 'user', tenantId?: number): Promise<Customer> {
    const customer = { email: uniqueEmail(what), password: newPassword(), givenName: 'Erika', surname: `Tester ${uniqueToken(2)}` };
    const api = await this.asAdmin();
    const created = await dataOf<{ id: number }>(
      await api.post('/api/system/customers', {
        data: {
          email: customer.email,
          password: customer.password,
          contact: { given_name: customer.givenName, sn: customer.surname },
          language: 'en',
          ...(tenantId === undefined ? {} : { tenant_id: tenantId }),
        },
      }),
      201,
      'POST /api/system/customers',
    );
    return { id: created.id, ...customer };
  }

  /**
   * A new domain with one enabled mailbox account `info@<domain>`. The domain belongs to a new
   * customer, not to the super admin, whose own domain list other specs may look at.
   */
  async domainUser(): Promise<DomainUser> {
    const owner = await this.customer('domain-owner');
    const api = await this.asAdmin();
    const name = `e2e-${uniqueToken()}.test`;
    const domain = await dataOf<{ id: number; text?: string }>(
      await api.post('/api/host/domain', { data: { name, owner_id: owner.id } }),
      201,
      'POST /api/host/domain',
    );
    const password = newPassword();
    const account = await dataOf<{ uid: string }>(
      await api.post(`/api/host/domain/${domain.id}/users`, {
        data: { uid: 'info', password, password_confirmation: password },
      }),
      201,
      `POST /api/host/domain/${domain.id}/users`,
    );
    return { domainId: domain.id, domain: name, uid: account.uid, password };
  }

  /**
   * A new host admin of tenant 1: a tenant-1 customer whom the super admin makes the tenant's
   * admin. It sees every customer and domain of tenant 1, including other specs' ones.
   */
  async hostAdmin(what = 'host-admin'): Promise<Customer> {
    const admin = await this.customer(what);
    const api = await this.asAdmin();
    const answer = await api.post('/api/system/tenants/1/admins', { data: { user_id: admin.id } });
    expect(answer.status(), `POST /api/system/tenants/1/admins: ${await answer.text()}`).toBeLessThan(300);
    return admin;
  }

  /** A new domain `e2e-<token>.test` (or `name`) owned by `owner`, made by the super admin. */
  async domain(owner: { id: number }, name = `e2e-${uniqueToken()}.test`): Promise<{ id: number; name: string }> {
    const api = await this.asAdmin();
    const domain = await dataOf<{ id: number }>(
      await api.post('/api/host/domain', { data: { name, owner_id: owner.id } }),
      201,
      'POST /api/host/domain',
    );
    return { id: domain.id, name };
  }

  /**
   * Name servers for tenant 1, so that a domain made afterwards starts with NS records in its
   * default zone (tenant 1 has none out of the box). The same two every time: a second call
   * changes nothing.
   */
  async tenantOneNameServers(): Promise<string[]> {
    const nameServers = ['ns1.berth-e2e.test', 'ns2.berth-e2e.test'];
    const api = await this.asAdmin();
    await expectStatus(
      await api.patch('/api/system/tenants/1', { data: { name_servers: nameServers } }),
      200,
      'PATCH /api/system/tenants/1',
    );
    return nameServers;
  }

  /**
   * A new tenant `E2E <token>` answering at `e2e-<token>.test` (never a host the test server is
   * reached at, so other specs keep tenant 1), made by the super admin.
   */
  async tenant(title = `E2E ${uniqueToken()}`): Promise<{ id: number; title: string; host: string }> {
    const api = await this.asAdmin();
    const host = `e2e-${uniqueToken()}.test`;
    const tenant = await dataOf<{ id: number }>(
      await api.post('/api/system/tenants', { data: { title, hosts: [host] } }),
      201,
      'POST /api/system/tenants',
    );
    return { id: tenant.id, title, host };
  }

  /** An API client signed in as `user` (e.g. to set up what the test does not look at). */
  signedIn(user: AdminCredentials, options: { totpSecret?: string } = {}): Promise<APIRequestContext> {
    return this.track(signedInApi(this.baseURL, user, options));
  }

  /**
   * Turns two-factor authentication on for `user` through the API, as /account/2fa does:
   * returns the secret and the recovery codes.
   */
  async enableTwoFactor(user: Customer): Promise<{ secret: string; recoveryCodes: string[] }> {
    const api = await this.signedIn(user);
    const setup = await dataOf<{ secret: string }>(
      await api.post('/api/account/2fa/setup', { data: { password: user.password } }),
      200,
      'POST /api/account/2fa/setup',
    );
    const code = await generate({ secret: setup.secret });
    const enabled = await dataOf<{ recovery_codes: string[] }>(
      await api.post('/api/account/2fa/enable', { data: { code } }),
      200,
      'POST /api/account/2fa/enable',
    );
    expect(enabled.recovery_codes.length).toBeGreaterThan(0);
    return { secret: setup.secret, recoveryCodes: enabled.recovery_codes };
  }

  /**
   * What the first login step answers for `email` and `password`: 'rejected' (422),
   * 'authenticated' or 'two_factor_required'. A fresh client, so the page's session is untouched.
   */
  async loginOutcome(email: string, password: string): Promise<'rejected' | 'authenticated' | 'two_factor_required'> {
    const api = await request.newContext({ baseURL: this.baseURL });
    try {
      const answer = await api.post('/api/login', { data: { email, password, remember: false } });
      if (answer.status() === 422) return 'rejected';
      return (await dataOf<{ status: 'authenticated' | 'two_factor_required' }>(answer, 200, `POST /api/login as ${email}`)).status;
    } finally {
      await api.dispose();
    }
  }

  async dispose(): Promise<void> {
    const settled = await Promise.allSettled(this.clients);
    for (const client of settled) if (client.status === 'fulfilled') await client.value.dispose();
  }
}
