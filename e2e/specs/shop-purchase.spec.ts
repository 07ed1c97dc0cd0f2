import type { Page } from '@playwright/test';
import { test, expect } from '../support/fixtures.ts';
import { uniqueToken } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';
import { createPromo, giveCredit, signInPage, superAdmin } from '../support/shop.ts';

// a customer buys a domain with a promo code and pays from credit; the domain exists
// with its expiry and the invoice (with its PDF) is listed. The promo code and the credit are set
// up through the API by the super admin; everything the customer does is on screen.

const SHELL_PAGE = { include: 'main' };

const cartCount = (page: Page) => page.getByTestId('cart-count');

test('a customer buys a domain with a promo code and pays from credit', async ({ page, accounts, berth }, testInfo) => {
  test.slow();
  const admin = await superAdmin(accounts, berth.admin);
  const customer = await accounts.customer('buyer');
  await giveCredit(admin, customer.id, 100_00);
  const promo = await createPromo(admin, { kind: 'percent', value: 20, kinds: ['domain_register'], max_uses: 5, once_per_customer: true });
  const domain = `e2e-${uniqueToken()}.com`;

  await signInPage(page, customer);
  await page.goto('/shop');
  await expect(page.getByRole('heading', { level: 1, name: 'Shop' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Hosting plans' }).getByRole('article')).toHaveCount(3);
  await expect(page.getByRole('region', { name: 'Domain prices' })).toContainText('.com');
  await reviewScreen(page, testInfo, 'shop-catalogue', SHELL_PAGE);

  // Monthly and yearly prices, with and without VAT.
  const starter = page.getByRole('article', { name: 'Starter' });
  await expect(starter).toContainText('per year');
  await page.getByText('Monthly', { exact: true }).click();
  await expect(starter).toContainText('per month');
  await expect(starter).toContainText(/net \+ .* VAT/);

  // ---- domain search ----
  await page.getByLabel('Domain name').fill(domain);
  await page.getByRole('button', { name: 'Check', exact: true }).click();
  const result = page.getByTestId('domain-result');
  await expect(result).toContainText(domain);
  await expect(result).toContainText('Available');
  // .com: €12.90 net a year, 21 % VAT → €15.61.
  await expect(result).toContainText('€15.61 per year (net €12.90)');
  await reviewScreen(page, testInfo, 'shop-domain-available', SHELL_PAGE);
  await result.getByRole('button', { name: 'Register' }).click();
  await expect(cartCount(page)).toHaveText('1');

  // ---- the cart: a wrong code's reason on the field, then the real one ----
  await page.getByTestId('cart-link').click();
  await expect(page).toHaveURL((url) => url.pathname === '/shop/cart');
  const row = page.getByTestId('cart-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(domain);
  await expect(row).toContainText('Domain registration');
  const totals = page.getByTestId('totals');
  await expect(page.getByTestId('totals-gross')).toHaveText('€15.61');

  const code = page.getByRole('textbox', { name: 'Promo code' });
  // Nothing typed: said under the field, not ignored.
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(code).toHaveAccessibleDescription(/This field is required\./);
  await code.fill('NO-SUCH-CODE');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  await reviewScreen(page, testInfo, 'shop-cart-promo-error', SHELL_PAGE);

  await code.fill(promo.code.toLowerCase());
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('applied-promo')).toContainText(promo.code);
  // 20 % off €12.90 net = €2.58; €10.32 net + 21 % VAT = €12.49.
  await expect(page.getByTestId('totals-discount')).toHaveText('−€2.58');
  await expect(totals).toContainText('€10.32');
  await expect(page.getByTestId('totals-gross')).toHaveText('€12.49');
  // The row says net like the totals, so its lines add up: €12.90 − €2.58 = €10.32, + €2.17 VAT = €12.49.
  await expect(row.getByTestId('cart-row-net')).toHaveText('€12.90');
  await expect(row.getByTestId('cart-row-discount')).toHaveText('Discount −€2.58');
  const amounts = (await totals.locator('dd').allInnerTexts()).map((text) => Math.round(Number(text.replace(/[^\d.]/g, '')) * 100));
  expect(amounts).toEqual([1290, 258, 1032, 217, 1249]);
  const [subtotal = 0, discount = 0, net = 0, vat = 0, gross = 0] = amounts;
  expect(subtotal - discount).toBe(net);
  expect(net + vat).toBe(gross);

  // Credit balance is offered with the balance.
  const credit = page.getByRole('radio', { name: /Credit balance/ });
  await expect(credit).toContainText('Your balance: €100.00');
  await credit.click();
  await reviewScreen(page, testInfo, 'shop-cart', SHELL_PAGE);

  // A double click makes one order (one idempotency key per attempt).
  await page.getByRole('button', { name: /Place order/ }).dblclick();
  await expect(page.getByRole('heading', { level: 1, name: 'Your order is complete' })).toBeVisible();
  await expect(cartCount(page)).toHaveCount(0);
  await reviewScreen(page, testInfo, 'shop-order-complete', SHELL_PAGE);

  // ---- the domain exists, with an expiry a year from now ----
  const expiry = new Date();
  expiry.setUTCFullYear(expiry.getUTCFullYear() + 1);
  const owned = await page.request.get(`/api/host/domain?q=${domain}`);
  const list = (await owned.json()) as { data: { name: string; expire_at: string | null }[] };
  expect(list.data.map((item) => item.name)).toEqual([domain]);
  expect(list.data[0]?.expire_at?.slice(0, 4)).toBe(String(expiry.getUTCFullYear()));
  await page.getByRole('link', { name: 'My domains' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/host/domain');
  await expect(page.getByRole('main')).toContainText(domain);
  await expect(page.getByRole('main')).toContainText(String(expiry.getUTCFullYear()));

  // ---- one invoice, paid, with the discount and a PDF ----
  await page.goto('/account/invoices');
  const invoices = page.getByTestId('invoice-row');
  await expect(invoices).toHaveCount(1);
  await expect(invoices).toContainText('Paid');
  await expect(invoices).toContainText('€12.49');
  await reviewScreen(page, testInfo, 'invoices', SHELL_PAGE);
  await invoices.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: /^Invoice / })).toBeVisible();
  await expect(page.getByTestId('invoice-lines')).toContainText(domain);
  await expect(page.getByTestId('totals-discount')).toHaveText('−€2.58');
  await reviewScreen(page, testInfo, 'invoice-detail', SHELL_PAGE);
  const pdfHref = await page.getByTestId('invoice-pdf').getAttribute('href');
  expect(pdfHref).toMatch(/^\/api\/account\/invoices\/\d+\/pdf$/);
  const pdf = await page.request.get(pdfHref ?? '');
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // The credit paid for it: €100.00 − €12.49.
  const balance = (await (await page.request.get('/api/credit')).json()) as { data: { balance: { formatted: string } } };
  expect(balance.data.balance.formatted).toBe('€87.51');
});

test('a domain renewal goes into the cart for the chosen period', async ({ page, accounts }, testInfo) => {
  test.slow();
  const customer = await accounts.customer('renewer');
  const domain = await accounts.domain(customer, `e2e-${uniqueToken()}.eu`);
  await signInPage(page, customer);

  await page.goto(`/host/domain/${domain.id}/renew`);
  await expect(page.getByRole('heading', { level: 1, name: `Renew ${domain.name}` })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Price per year');
  // .eu renewal: €7.90 net + 21 % = €9.56.
  await expect(page.getByRole('main')).toContainText('€9.56');
  await page.getByLabel('Renew for').selectOption({ label: '3 years' });
  // The total due as the invoice will say it (VAT on the net sum), and the exact unit behind it.
  await expect(page.getByRole('main')).toContainText('€28.68 for 3 years, VAT included (€7.90 per year before VAT).');
  await reviewScreen(page, testInfo, 'domain-renew', SHELL_PAGE);
  await page.getByRole('button', { name: 'Add renewal to cart' }).click();
  await expect(cartCount(page)).toHaveText('1');

  await page.goto('/shop/cart');
  const row = page.getByTestId('cart-row');
  await expect(row).toContainText(domain.name);
  await expect(row).toContainText('Domain renewal');
  await expect(row.getByRole('combobox')).toHaveValue('36');
  // 3 × €9.56 (VAT on the net sum: 3 × €7.90 = €23.70 → €28.68).
  await expect(page.getByTestId('totals-gross')).toHaveText('€28.68');

  // The period changes in place; removing the row empties the cart.
  await row.getByRole('combobox').selectOption('12');
  await expect(page.getByTestId('totals-gross')).toHaveText('€9.56');
  await row.getByRole('button', { name: `Remove ${domain.name} from the cart` }).click();
  await expect(page.getByRole('heading', { name: 'Your cart is empty' })).toBeVisible();
  await expect(cartCount(page)).toHaveCount(0);
  await reviewScreen(page, testInfo, 'shop-cart-empty', SHELL_PAGE);
});

test('a domain renewal paid at once from credit, the cart left alone', async ({ page, accounts, berth }, testInfo) => {
  test.slow();
  const admin = await superAdmin(accounts, berth.admin);
  const customer = await accounts.customer('renew-now');
  const domain = await accounts.domain(customer, `e2e-${uniqueToken()}.eu`);
  await giveCredit(admin, customer.id, 50_00);
  await signInPage(page, customer);
  const expiry = async () =>
    ((await (await page.request.get(`/api/host/domain/${domain.id}`)).json()) as { data: { expire_at: string | null } }).data.expire_at;
  const before = await expiry();

  await page.goto(`/host/domain/${domain.id}/renew`);
  await page.getByLabel('Renew for').selectOption({ label: '2 years' });
  const now = page.getByRole('main');
  await expect(now.getByRole('heading', { name: 'Or renew now' })).toBeVisible();
  await expect(now.getByText('Your balance: €50.00')).toBeVisible();
  await reviewScreen(page, testInfo, 'domain-renew-now', SHELL_PAGE);
  // 2 × €7.90 = €15.80 net + 21 % VAT = €19.12.
  await now.getByRole('button', { name: 'Pay now · €19.12' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Your order is complete' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('€19.12');
  await reviewScreen(page, testInfo, 'domain-renew-paid', SHELL_PAGE);
  const after = await expiry();
  expect(after).not.toBeNull();
  const added = new Date(after ?? 0).getTime() - new Date(before ?? Date.now()).getTime();
  expect(Math.round(added / (365.25 * 24 * 3_600_000))).toBe(2);
  const balance = (await (await page.request.get('/api/credit')).json()) as { data: { balance: { formatted: string } } };
  expect(balance.data.balance.formatted).toBe('€30.88');
  await expect(cartCount(page)).toHaveCount(0);
});
