import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addUser, superAdmin, type Caller } from '../../../test/hosting.ts';
import { issueInvoice, purchasingTenant, VALID_CZ_IBAN } from '../../../test/payments.ts';

let t: TestApp;
let shop: number;
let rival: number;
let admin: { call: Caller };
let rivalAdmin: { call: Caller };
let buyer: { user: { id: number }; call: Caller };
let stranger: { call: Caller };

beforeAll(async () => {
  t = await createTestApp();
  shop = await purchasingTenant(t, 'Přístav Hosting', 'shop.test');
  rival = await purchasingTenant(t, 'Rival Hosting', 'rival.test');
  admin = await addUser(t, shop, 'admin@shop.test', 'host_admin');
  rivalAdmin = await addUser(t, rival, 'admin@rival.test', 'host_admin');
  buyer = await addUser(t, shop, 'buyer@shop.test', 'customer', ['Jiří', 'Šťastný']);
  stranger = await addUser(t, shop, 'stranger@shop.test');
  await admin.call({
    method: 'PUT',
    url: `/api/system/tenants/${shop}/bank-account`,
    payload: { account_name: 'Přístav s.r.o.', iban: VALID_CZ_IBAN },
  });
});
afterAll(async () => t.close());

/** The PDF's text as PDF strings: the Info dictionary and, inflated, every content stream. */
function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const parts = [raw];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const end = raw.indexOf('endstream', start);
    try {
      parts.push(inflateSync(pdf.subarray(start, end)).toString('latin1'));
    } catch {
      // Not every stream is deflated (images, fonts).
    }
  }
  return parts.join('\n');
}

/** PDF text strings may be UTF-16BE hex (<FEFF...>): decode those to compare with plain text. */
function decodedStrings(text: string): string {
  const hex = [...text.matchAll(/<FEFF([0-9A-Fa-f]+)>/g)].map((m) =>
    Buffer.from(m[1] ?? '', 'hex')
      .swap16()
      .toString('utf16le'),
  );
  return `${text}\n${hex.join('\n')}`;
}

describe('invoice PDF', () => {
  it('gives the buyer a PDF of their invoice with its number', async () => {
    const invoice = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 121_000, currency: 'CZK', title: 'Kredit' });
    const response = await buyer.call({ method: 'GET', url: `/api/account/invoices/${invoice.id}/pdf` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="invoice-${invoice.number}.pdf"`);
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = decodedStrings(pdfText(response.rawPayload));
    expect(text).toContain(invoice.number);
    // Unpaid, by bank transfer: the payment QR code is drawn (an image XObject).
    expect(text).toMatch(/\/Subtype \/Image/);
  });

  it('has no QR code once paid', async () => {
    const invoice = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 500 });
    await admin.call({ method: 'POST', url: `/api/system/invoices/${invoice.id}/mark-paid`, payload: {} });
    const response = await buyer.call({ method: 'GET', url: `/api/account/invoices/${invoice.id}/pdf` });
    expect(response.statusCode).toBe(200);
    expect(pdfText(response.rawPayload)).not.toMatch(/\/Subtype \/Image/);
  });

  it("answers 404 for someone else's invoice", async () => {
    const invoice = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 500 });
    expect((await stranger.call({ method: 'GET', url: `/api/account/invoices/${invoice.id}/pdf` })).statusCode).toBe(404);
    expect((await admin.call({ method: 'GET', url: `/api/account/invoices/${invoice.id}/pdf` })).statusCode).toBe(404);
    expect((await buyer.call({ method: 'GET', url: '/api/account/invoices/999999/pdf' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/account/invoices/${invoice.id}/pdf` })).statusCode).toBe(401);
  });

  it("lets the tenant's admins and super admins download it, nobody else", async () => {
    const invoice = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 500 });
    const url = `/api/system/invoices/${invoice.id}/pdf`;
    const german = await admin.call({ method: 'PATCH', url: '/api/user/language', payload: { language: 'de' } });
    expect(german.statusCode).toBe(200);
    const byAdmin = await admin.call({ method: 'GET', url });
    expect(byAdmin.statusCode).toBe(200);
    expect(decodedStrings(pdfText(byAdmin.rawPayload))).toContain(`Rechnung ${invoice.number}`);
    expect((await (await superAdmin(t)).call({ method: 'GET', url })).statusCode).toBe(200);
    expect((await rivalAdmin.call({ method: 'GET', url })).statusCode).toBe(404);
    expect((await buyer.call({ method: 'GET', url })).statusCode).toBe(403);
  });
});
