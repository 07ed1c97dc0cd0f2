import { expect, type APIRequestContext, type APIResponse, type BrowserContext, type Page } from '@playwright/test';
import { uniqueEmail, uniqueToken, newPassword, type Accounts, type Customer } from './accounts.ts';
import type { AdminCredentials } from './server.ts';
import { signIn } from './shell-session.ts';

/* Set-up of the shop specs through the API (as the super admin), and signing pages in. */

/** A valid IBAN (the Czech National Bank's example) and BIC for a tenant's bank account. */
export const TENANT_IBAN = 'CZ6508000000192000145399';
export const TENANT_BIC = 'GIBACZPX';

async function dataOf<T>(answer: APIResponse, status: number, what: string): Promise<T> {
  if (answer.status() !== status) throw new Error(`${what}: expected HTTP ${status}, got ${answer.status()}: ${await answer.text()}`);
  return ((await answer.json()) as { data: T }).data;
}

/** Signs `user` in for every page of the browser context (the session cookie, no login screen). */
export async function signInPage(page: Page, user: { email: string; password: string }): Promise<void> {
  const answer = await page.request.post('/api/login', { data: { email: user.email, password: user.password, remember: false } });
  expect(answer.status(), `POST /api/login as ${user.email}: ${await answer.text()}`).toBe(200);
}

/** The tenant's bank account, so that bank transfer is offered. `origin` selects the tenant. */
export async function setBankAccount(admin: APIRequestContext, tenantId: number): Promise<void> {
  await dataOf(
    await admin.put(`/api/system/tenants/${tenantId}/bank-account`, {
      data: { account_name: 'Berth Hosting s.r.o.', iban: TENANT_IBAN, bic: TENANT_BIC },
    }),
    200,
    `PUT /api/system/tenants/${tenantId}/bank-account`,
  );
}

/** An admin's manual credit of `amount` minor units to `userId`. */
export async function giveCredit(admin: APIRequestContext, userId: number, amount: number): Promise<void> {
  await dataOf(
    await admin.post('/api/system/credit/adjustments', { data: { user_id: userId, amount, description: 'Welcome credit (e2e)' } }),
    201,
    'POST /api/system/credit/adjustments',
  );
}

/** A domain registered in the shop by the signed-in customer, paid from credit in the browser; answers its id. */
export async function buyDomainInBrowser(page: Page, name: string): Promise<number> {
  await page.goto('/shop');
  await page.getByLabel('Domain name').fill(name);
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  await page.getByTestId('domain-result').getByRole('button', { name: 'Register' }).click();
  await page.getByTestId('cart-link').click();
  await page.getByRole('radio', { name: /Credit balance/ }).click();
  await page.getByRole('button', { name: /Place order/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Your order is complete' })).toBeVisible();
  const listed = (await (await page.request.get(`/api/host/domain?q=${name}`)).json()) as { data: { id: number; name: string }[] };
  const domain = listed.data.find((item) => item.name === name);
  expect(domain).toBeDefined();
  return domain!.id;
}

/** A promo code of the request's tenant; `code` is unique per call. */
export async function createPromo(admin: APIRequestContext, payload: Record<string, unknown>): Promise<{ id: number; code: string }> {
  const code = `E2E-${uniqueToken(3).toUpperCase()}`;
  return dataOf(await admin.post('/api/system/partner/promo', { data: { code, ...payload } }), 201, 'POST /api/system/partner/promo');
}

/** A reseller tenant that sells through its own shop (host_purchases) and its host admin. */
export interface PartnerTenant {
  tenantId: number;
  host: string;
  /** `http://<host>:<port>`: browsers resolve *.localhost to this machine. */
  origin: string;
  admin: Customer;
}

/**
 * A new host_purchases tenant at `<token>.localhost` with a bank account and a host admin. Its
 * partner credit, payment methods and promo codes are what docs/product.md §6 shows such tenants.
 */
export async function partnerTenant(admin: APIRequestContext, baseURL: string): Promise<PartnerTenant> {
  const host = `partner-${uniqueToken()}.localhost`;
  const tenant = await dataOf<{ id: number }>(
    await admin.post('/api/system/tenants', {
      data: { title: 'Partner Hosting', hosts: [host], host_purchases: 'https://shop.partner.example/cart' },
    }),
    201,
    'POST /api/system/tenants',
  );
  const user = { email: uniqueEmail('partner'), password: newPassword(), givenName: 'Pavla', surname: `Partner ${uniqueToken(2)}` };
  const created = await dataOf<{ id: number }>(
    await admin.post('/api/system/customers', {
      data: {
        email: user.email,
        password: user.password,
        contact: { given_name: user.givenName, sn: user.surname },
        language: 'en',
        tenant_id: tenant.id,
      },
    }),
    201,
    'POST /api/system/customers',
  );
  const promoted = await admin.post(`/api/system/tenants/${tenant.id}/admins`, { data: { user_id: created.id } });
  expect(promoted.status(), `POST /api/system/tenants/${tenant.id}/admins: ${await promoted.text()}`).toBeLessThan(300);
  await setBankAccount(admin, tenant.id);
  const port = new URL(baseURL).port;
  return { tenantId: tenant.id, host, origin: `http://${host}:${port}`, admin: { id: created.id, ...user } };
}

/** Signs `user` in at a tenant's own host (the API is asked at the loopback address with its Host header). */
export async function signInAt(context: BrowserContext, origin: string, user: AdminCredentials): Promise<void> {
  await signIn(context, origin, user.email, user.password);
}

/** The super admin's API client. */
export const superAdmin = (accounts: Accounts, admin: AdminCredentials): Promise<APIRequestContext> => accounts.signedIn(admin);

/**
 * Resolves once the page's realtime socket has had both private channels (notifications and
 * cart) accepted: socket.io acknowledgements `43<n>[{"ok":true}]`. Call before the page loads.
 */
export function realtimeSubscribed(page: Page): Promise<void> {
  return new Promise((resolve) => {
    let accepted = 0;
    page.on('websocket', (socket) => {
      socket.on('framereceived', ({ payload }) => {
        if (typeof payload === 'string' && /^43\d*\[\{"ok":true\}\]$/.test(payload)) {
          accepted += 1;
          if (accepted >= 2) resolve();
        }
      });
    });
  });
}
