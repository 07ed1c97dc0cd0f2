import { readFile } from 'node:fs/promises';
import { test, expect } from '../support/fixtures.ts';
import { signInPage, uniqueToken } from '../support/accounts.ts';
import { reviewScreen } from '../support/review.ts';
import { giveCredit } from '../support/shop.ts';

// E-invoices: a host admin sets the seller's legal details (the server names the field that is
// wrong); an invoice issued afterwards offers its EN 16931 XML on the buyer's invoice page, and the
// download is the invoice. The super admin's allowed webhook ranges sit on the webhooks page.

const SELLER = { include: 'section[aria-labelledby="seller-details-heading"]' };

test('a host admin sets the seller details and the buyer downloads the e-invoice', async ({ page, browser, accounts }, testInfo) => {
  test.slow();
  const admin = await accounts.hostAdmin('seller');
  await signInPage(page, admin);
  await page.goto('/system/partner/catalogue');
  const section = page.getByRole('region', { name: 'Seller on invoices' });
  await section.getByRole('textbox', { name: 'Legal name' }).fill('Berth Test Hosting s.r.o.');
  await section.getByRole('textbox', { name: 'Street and number' }).fill('Nábřeží 12');
  await section.getByRole('textbox', { name: 'Postal code' }).fill('110 00');
  await section.getByRole('textbox', { name: 'City' }).fill('Praha');
  await section.getByRole('combobox', { name: 'Country' }).selectOption('CZ');
  const vat = section.getByRole('textbox', { name: 'VAT ID (optional)' });
  await vat.fill('12345678;{');
  await section.getByRole('button', { name: 'Save seller details' }).click();
  await expect(vat).toHaveAttribute('aria-invalid', 'true');
  await reviewScreen(page, testInfo, 'seller-details-error', SELLER);
  await vat.fill('CZ12345678');
  await section.getByRole('button', { name: 'Save seller details' }).click();
  await expect(section.getByText('The seller details have been saved. New invoices carry them.')).toBeVisible();
  await expect(section).toContainText('E-invoices on');
  await reviewScreen(page, testInfo, 'seller-details-saved', SELLER);
  await page.reload();
  await expect(page.getByRole('region', { name: 'Seller on invoices' }).getByRole('textbox', { name: 'VAT ID (optional)' })).toHaveValue(
    'CZ12345678',
  );

  // ---- a customer buys a domain; the invoice offers its e-invoice ----
  const customer = await accounts.customer('e-invoice');
  await giveCredit(await accounts.signedIn(admin), customer.id, 100_00);
  const customerApi = await accounts.signedIn(customer);
  const added = await customerApi.post('/api/cart/items', { data: { kind: 'domain_register', name: `e2e-einvoice-${uniqueToken()}.com` } });
  expect(added.status(), await added.text()).toBe(200);
  const bought = await customerApi.post('/api/shop/checkout', { data: { payment: 'credit', idempotency_key: `e2e-${uniqueToken(8)}` } });
  expect(bought.status(), await bought.text()).toBe(201);
  const invoice = (await bought.json()).data.invoice as { id: number; number: string };

  const context = await browser.newContext();
  try {
    const buyer = await context.newPage();
    await signInPage(buyer, customer);
    await buyer.goto(`/account/invoices/${invoice.id}`);
    await buyer.getByRole('button', { name: 'E-invoice' }).click();
    const cii = buyer.getByRole('menuitem', { name: 'UN/CEFACT CII' });
    await expect(cii).toBeVisible();
    await expect(buyer.getByRole('menuitem', { name: 'XRechnung (UBL)' })).toBeVisible();
    await reviewScreen(buyer, testInfo, 'invoice-e-invoice-menu');
    const [download] = await Promise.all([buyer.waitForEvent('download'), cii.click()]);
    expect(download.suggestedFilename()).toBe(`invoice-${invoice.number}-cii.xml`);
    const xml = await readFile(await download.path(), 'utf8');
    expect(xml).toContain('urn:cen.eu:en16931:2017');
    expect(xml).toContain(`<ram:ID>${invoice.number}</ram:ID>`);
    expect(xml).toContain('<ram:ID schemeID="VA">CZ12345678</ram:ID>');
  } finally {
    await context.close();
  }
});

test('the super admin lets webhooks reach a private range, line by line', async ({ page, berth }, testInfo) => {
  await signInPage(page, berth.admin);
  await page.goto('/system/webhooks');
  const section = page.getByRole('region', { name: 'Private ranges webhooks may reach' });
  const ranges = section.getByRole('textbox', { name: 'Allowed addresses and ranges' });
  await ranges.fill('10.20.0.0/16\n10.0.0.0/33');
  await section.getByRole('button', { name: 'Save ranges' }).click();
  await expect(section.getByText('“10.0.0.0/33” is not an IP address or range.')).toBeVisible();
  await reviewScreen(page, testInfo, 'webhook-ranges-error', { include: 'section[aria-labelledby="allowed-ranges-heading"]' });
  await ranges.fill('10.20.0.0/16\nFD00::/8');
  await section.getByRole('button', { name: 'Save ranges' }).click();
  await expect(page.getByText('The allowed ranges have been saved. Webhooks may reach them from the next delivery.')).toBeVisible();
  await expect(ranges).toHaveValue('10.20.0.0/16\nfd00::/8');
  await reviewScreen(page, testInfo, 'webhook-ranges-saved');
  // Leave the platform as the other specs expect it.
  await ranges.fill('');
  await section.getByRole('button', { name: 'Save ranges' }).click();
  await expect(ranges).toHaveValue('');
});
