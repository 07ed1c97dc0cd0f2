import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addUser, superAdmin, type Caller } from '../../../test/hosting.ts';
import { issueInvoice, multipartFile, purchasingTenant, VALID_CZ_IBAN, VALID_IBAN } from '../../../test/payments.ts';
import { loadDemoData } from '../demo/service.ts';
import { BankTransferProvider } from './bank-transfer.ts';
import { spaydPayload } from './payment-qr.ts';

let t: TestApp;
let shop: number;
let rival: number;
let admin: { user: { id: number }; call: Caller };
let rivalAdmin: { user: { id: number }; call: Caller };
let buyer: { user: { id: number }; call: Caller };
let root: { call: Caller };

const account = (tenantId: number) => `/api/system/tenants/${tenantId}/bank-account`;

beforeAll(async () => {
  t = await createTestApp();
  shop = await purchasingTenant(t, 'Shop Hosting', 'shop.test');
  rival = await purchasingTenant(t, 'Rival Hosting', 'rival.test');
  admin = await addUser(t, shop, 'admin@shop.test', 'host_admin');
  rivalAdmin = await addUser(t, rival, 'admin@rival.test', 'host_admin');
  buyer = await addUser(t, shop, 'buyer@shop.test');
  root = await superAdmin(t);
});
afterAll(async () => t.close());

const paid = async (invoiceId: number) =>
  (await t.db.selectFrom('invoices').select('status').where('id', '=', invoiceId).executeTakeFirstOrThrow()).status;
const payments = (invoiceId: number) =>
  t.db.selectFrom('payments').select(['provider', 'reference', 'amount']).where('invoice_id', '=', invoiceId).execute();

describe("the tenant's bank account", () => {
  it('is for admins of the tenant only', async () => {
    expect((await buyer.call({ method: 'GET', url: account(shop) })).statusCode).toBe(403);
    expect((await rivalAdmin.call({ method: 'GET', url: account(shop) })).statusCode).toBe(404);
    expect(
      (await rivalAdmin.call({ method: 'PUT', url: account(shop), payload: { account_name: 'Thief', iban: VALID_IBAN } })).statusCode,
    ).toBe(404);
    expect((await root.call({ method: 'GET', url: account(987_654) })).statusCode).toBe(404);
  });

  it('starts empty, so bank transfer is off', async () => {
    expect((await admin.call({ method: 'GET', url: account(shop) })).json()).toEqual({ data: null });
    expect(await new BankTransferProvider(t.db).enabled(shop)).toBe(false);
  });

  it('refuses a bad IBAN per field', async () => {
    const response = await admin.call({
      method: 'PUT',
      url: account(shop),
      payload: { account_name: 'Shop', iban: 'CZ6508000000192000145398' },
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json<{ errors: object }>().errors)).toEqual(['iban']);
  });

  it('is set by the host admin, audited, and turns bank transfer on', async () => {
    const response = await admin.call({
      method: 'PUT',
      url: account(shop),
      payload: { account_name: 'Shop Hosting s.r.o.', iban: 'CZ65 0800 0000 1920 0014 5399', bic: 'GIBACZPX' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ data: unknown }>().data).toEqual({ account_name: 'Shop Hosting s.r.o.', iban: VALID_CZ_IBAN, bic: 'GIBACZPX' });
    expect(await new BankTransferProvider(t.db).enabled(shop)).toBe(true);
    expect(await new BankTransferProvider(t.db).enabled(rival)).toBe(false);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['tenant_id', 'user_id'])
      .where('action', '=', 'tenant.bank_account_set')
      .execute();
    expect(audit).toEqual([{ tenant_id: shop, user_id: admin.user.id }]);
  });

  it('can be set by a super admin for any tenant and removed again', async () => {
    expect(
      (await root.call({ method: 'PUT', url: account(rival), payload: { account_name: 'Rival GmbH', iban: VALID_IBAN } })).statusCode,
    ).toBe(200);
    expect((await rivalAdmin.call({ method: 'GET', url: account(rival) })).json<{ data: { bic: null } }>().data.bic).toBeNull();
    const removed = await rivalAdmin.call({ method: 'DELETE', url: account(rival) });
    expect(removed.statusCode).toBe(200);
    expect(removed.json<{ data: null }>().data).toBeNull();
    expect(await new BankTransferProvider(t.db).enabled(rival)).toBe(false);
    expect(await t.db.selectFrom('audit_log').select('id').where('action', '=', 'tenant.bank_account_removed').execute()).toHaveLength(1);
  });
});

describe('paying by bank transfer', () => {
  it('answers pending with the reference, amount and a SPAYD QR code for CZK', async () => {
    const invoice = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 121_000, currency: 'CZK' });
    const provider = new BankTransferProvider(t.db);
    const start = await t.db.transaction().execute((trx) =>
      provider.start(trx, {
        id: invoice.id,
        tenant_id: shop,
        user_id: buyer.user.id,
        number: invoice.number,
        currency: 'CZK',
        total: 121_000,
        payment_reference: invoice.payment_reference,
        kind: 'credit',
      }),
    );
    expect(start).toMatchObject({
      status: 'pending',
      instructions: {
        kind: 'bank_transfer',
        account_name: 'Shop Hosting s.r.o.',
        iban: VALID_CZ_IBAN,
        bic: 'GIBACZPX',
        reference: invoice.payment_reference,
        amount: 121_000,
        currency: 'CZK',
      },
    });
    expect(start.status === 'pending' && start.instructions.kind === 'bank_transfer' && start.instructions.qr_svg.startsWith('<svg')).toBe(
      true,
    );
    expect(
      spaydPayload({
        accountName: 'Shop Hosting s.r.o.',
        iban: VALID_CZ_IBAN,
        bic: 'GIBACZPX',
        amount: 121_000,
        currency: 'CZK',
        reference: invoice.payment_reference,
      }),
    ).toContain('*AM:1210.00*CC:CZK*');
  });

  it('fails the checkout where the tenant has no bank account', async () => {
    const invoice = await issueInvoice(t, { tenantId: rival, userId: rivalAdmin.user.id, gross: 1000 });
    const provider = new BankTransferProvider(t.db);
    await expect(
      t.db.transaction().execute((trx) =>
        provider.start(trx, {
          id: invoice.id,
          tenant_id: rival,
          user_id: rivalAdmin.user.id,
          number: invoice.number,
          currency: 'EUR',
          total: 1000,
          payment_reference: invoice.payment_reference,
          kind: 'credit',
        }),
      ),
    ).rejects.toMatchObject({ status: 422 });
  });
});

describe('marking an invoice paid', () => {
  it('is for admins of the invoice tenant', async () => {
    const invoice = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 5000 });
    expect((await buyer.call({ method: 'POST', url: `/api/system/invoices/${invoice.id}/mark-paid` })).statusCode).toBe(403);
    expect((await rivalAdmin.call({ method: 'POST', url: `/api/system/invoices/${invoice.id}/mark-paid` })).statusCode).toBe(404);
    expect((await admin.call({ method: 'POST', url: '/api/system/invoices/999999/mark-paid' })).statusCode).toBe(404);
    expect(await paid(invoice.id)).toBe('unpaid');
  });

  it('settles a top-up once: the invoice is paid and the credit arrives', async () => {
    const invoice = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 2500, kind: 'credit' });
    const url = `/api/system/invoices/${invoice.id}/mark-paid`;
    const first = await admin.call({ method: 'POST', url, payload: { reference: 'BANK-TX-1' } });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      data: { invoice_id: invoice.id, settled: true, already_paid: false },
      message: `Invoice ${invoice.number} has been marked as paid.`,
    });
    const second = await admin.call({ method: 'POST', url });
    expect(second.json<{ data: unknown }>().data).toEqual({ invoice_id: invoice.id, settled: false, already_paid: true });
    expect(await paid(invoice.id)).toBe('paid');
    expect(await payments(invoice.id)).toHaveLength(1);
    const ledger = await t.db.selectFrom('credit_ledger').select(['amount', 'type']).where('invoice_id', '=', invoice.id).execute();
    expect(ledger).toEqual([{ amount: 2500, type: 'top_up' }]);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['user_id', 'data'])
      .where('action', '=', 'invoice.marked_paid')
      .where('target_id', '=', String(invoice.id))
      .execute();
    expect(audit).toEqual([{ user_id: admin.user.id, data: expect.objectContaining({ bank_reference: 'BANK-TX-1', amount: 2500 }) }]);
  });

  it('stores the payer\'s "paid" notice, listed unread on /api/notifications for a payer who was offline', async () => {
    const before = (await buyer.call({ method: 'GET', url: '/api/notifications' })).json<{ unread: number }>().unread;
    const invoice = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 1200 });
    const url = `/api/system/invoices/${invoice.id}/mark-paid`;
    // Thirty confirmations at once (two admins' tabs, a bank import): one payment, one notice.
    const answers = await Promise.all(Array.from({ length: 30 }, () => admin.call({ method: 'POST', url })));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(30).fill(200));
    const listed = (await buyer.call({ method: 'GET', url: '/api/notifications' })).json<{
      data: { type: string; text: string; read: boolean }[];
      unread: number;
    }>();
    expect(listed.unread).toBe(before + 1);
    expect(listed.data.filter((row) => row.text.includes(invoice.number))).toEqual([
      {
        id: expect.any(Number),
        type: 'info',
        text: expect.stringContaining(invoice.number),
        read: false,
        read_at: null,
        created_at: expect.any(String),
      },
    ]);
    expect(await payments(invoice.id)).toHaveLength(1);
  });

  it('is done by super admins for any tenant; bad input is 422', async () => {
    const invoice = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 700 });
    expect(
      (await root.call({ method: 'POST', url: `/api/system/invoices/${invoice.id}/mark-paid`, payload: { reference: '' } })).statusCode,
    ).toBe(422);
    expect(
      (await root.call({ method: 'POST', url: `/api/system/invoices/${invoice.id}/mark-paid`, payload: {} })).json<{
        data: { settled: boolean };
      }>().data.settled,
    ).toBe(true);
  });
});

describe('importing a bank statement', () => {
  const url = '/api/system/payments/bank-statement';

  it('matches by reference and exact amount and answers per line', async () => {
    const a = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 12_100 });
    const b = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 9_900 });
    const foreign = await issueInvoice(t, { tenantId: rival, userId: rivalAdmin.user.id, gross: 4_000 });
    const csv = [
      'Date;Amount;Currency;Variable symbol;Counterparty',
      `2026-11-02;121,00;EUR;${a.payment_reference};Cleo Customer`,
      `2026-11-02;99,00;EUR;${b.payment_reference.padStart(12, '0')};Cleo Customer`.replace(';99,00;', ';98,00;'),
      `2026-11-03;40,00;EUR;${foreign.payment_reference};Somebody`,
      '2026-11-03;-15,00;EUR;;Electricity',
      '2026-11-03;lots;EUR;123;Garbage',
    ].join('\n');
    const response = await admin.call({ method: 'POST', url, ...multipartFile('file', 'statement.csv', csv) });
    expect(response.statusCode).toBe(200);
    const { data, message } = response.json<{
      data: { lines: { line: number; status: string; invoice_id: number | null; amount: number | null }[]; counts: Record<string, number> };
      message: string;
    }>();
    const byLine = (line: number) => data.lines.find((l) => l.line === line);
    expect([byLine(2)?.status, byLine(2)?.invoice_id]).toEqual(['matched', a.id]);
    // Bank-padded variable symbol, one unit short: found, but not paid.
    expect([byLine(3)?.status, byLine(3)?.invoice_id]).toEqual(['amount_mismatch', b.id]);
    // References are numbered per tenant: another tenant's invoice is never matched, whatever ours share its number.
    expect(byLine(4)?.status).not.toBe('matched');
    expect(byLine(4)?.invoice_id).not.toBe(foreign.id);
    expect([byLine(5)?.status, byLine(6)?.status]).toEqual(['ignored', 'invalid']);
    expect(data.lines[0]?.amount).toBe(12_100);
    expect(data.counts.matched).toBe(1);
    expect(message).toContain('1');
    expect(await paid(a.id)).toBe('paid');
    expect(await paid(b.id)).toBe('unpaid');
    expect(await paid(foreign.id)).toBe('unpaid');
    expect(await t.db.selectFrom('audit_log').select('id').where('action', '=', 'invoice.paid_by_statement').execute()).toHaveLength(1);
    expect(await t.db.selectFrom('audit_log').select('id').where('action', '=', 'payments.bank_statement_imported').execute()).toHaveLength(
      1,
    );
  });

  it('importing the same statement again pays nothing twice', async () => {
    const invoice = await issueInvoice(t, { tenantId: shop, userId: buyer.user.id, gross: 3_000, kind: 'credit' });
    const csv = `id,date,amount,currency,reference,counterparty\nTX-77,2026-11-04,30.00,EUR,${invoice.payment_reference},Cleo\n`;
    const first = await admin.call({ method: 'POST', url, ...multipartFile('file', 's.csv', csv) });
    const again = await admin.call({ method: 'POST', url, ...multipartFile('file', 's.csv', csv) });
    expect(first.json<{ data: { lines: { status: string }[] } }>().data.lines[0]?.status).toBe('matched');
    expect(again.json<{ data: { lines: { status: string }[] } }>().data.lines[0]?.status).toBe('already_paid');
    expect(await payments(invoice.id)).toEqual([{ provider: 'bank_transfer', reference: `statement:${shop}:id:TX-77`, amount: 3000 }]);
    expect(await t.db.selectFrom('credit_ledger').select('amount').where('invoice_id', '=', invoice.id).execute()).toEqual([
      { amount: 3000 },
    ]);
  });

  it("imports for the super admin's chosen tenant; host admins only for their own", async () => {
    const invoice = await issueInvoice(t, { tenantId: rival, userId: rivalAdmin.user.id, gross: 1_500 });
    const csv = `date,amount,currency,reference,counterparty\n2026-11-05,15.00,EUR,${invoice.payment_reference},Rival\n`;
    expect(
      (await admin.call({ method: 'POST', url: `${url}?tenant_id=${rival}`, ...multipartFile('file', 's.csv', csv) })).statusCode,
    ).toBe(404);
    expect((await buyer.call({ method: 'POST', url, ...multipartFile('file', 's.csv', csv) })).statusCode).toBe(403);
    const response = await root.call({ method: 'POST', url: `${url}?tenant_id=${rival}`, ...multipartFile('file', 's.csv', csv) });
    expect(response.json<{ data: { lines: { status: string }[] } }>().data.lines[0]?.status).toBe('matched');
    expect(await paid(invoice.id)).toBe('paid');
  });

  it('answers 422 on the file field for a missing file, missing columns or garbage', async () => {
    const missing = await admin.call({ method: 'POST', url, payload: {} });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json<{ errors: object }>().errors)).toEqual(['file']);
    const columns = await admin.call({ method: 'POST', url, ...multipartFile('file', 's.csv', 'date,amount\n2026-11-01,1\n') });
    expect(columns.statusCode).toBe(422);
    expect(columns.json<{ errors: { file: string[] } }>().errors.file[0]).toContain('date, amount, currency, reference, counterparty');
    const garbage = await admin.call({
      method: 'POST',
      url,
      ...multipartFile('file', 's.csv', 'date,amount,currency,reference,counterparty\n"open', 'text/csv'),
    });
    expect(garbage.statusCode).toBe(422);
    const binary = await admin.call({
      method: 'POST',
      url,
      ...multipartFile('file', 's.csv', Buffer.from([0, 255, 1, 2, 3]), 'application/octet-stream'),
    });
    expect(binary.statusCode).toBe(422);
  });
});

describe('demo data', () => {
  it('gives the demo and operator tenants test bank details, keeping one already set', async () => {
    await t.db
      .insertInto('tenant_bank_accounts')
      .values({ tenant_id: 1, account_name: 'Operator Ltd', iban: VALID_IBAN, bic: null, updated_at: t.clock.now() })
      .execute();
    const summary = await loadDemoData(t.db, t.services.hasher, t.clock, {
      password: 'a long enough demo passphrase',
      host: 'harbor.test',
    });
    const provider = new BankTransferProvider(t.db);
    expect(await provider.enabled(summary!.tenantId)).toBe(true);
    expect(
      (await t.db.selectFrom('tenant_bank_accounts').select('account_name').where('tenant_id', '=', 1).executeTakeFirstOrThrow())
        .account_name,
    ).toBe('Operator Ltd');
  });
});

describe('a top-up by bank transfer, end to end', () => {
  it('answers the transfer instructions, and the credit arrives when an admin confirms it', async () => {
    await admin.call({ method: 'PUT', url: account(shop), payload: { account_name: 'Shop Hosting s.r.o.', iban: VALID_CZ_IBAN } });
    const topUp = await buyer.call({ method: 'POST', url: '/api/credit/top-up', payload: { amount: 5_000, payment: 'bank_transfer' } });
    expect(topUp.statusCode).toBe(201);
    const invoice = topUp.json<{
      data: { invoice: { id: number; status: string; payment_reference: string; instructions: Record<string, unknown> } };
    }>().data.invoice;
    expect(invoice.status).toBe('unpaid');
    expect(invoice.instructions).toMatchObject({
      kind: 'bank_transfer',
      iban: VALID_CZ_IBAN,
      reference: invoice.payment_reference,
      amount: 5_000,
    });
    expect(String(invoice.instructions.qr_svg)).toMatch(/^<svg/);
    const balance = async () =>
      (await buyer.call({ method: 'GET', url: '/api/credit' })).json<{ data: { balance: { amount: number } } }>().data.balance.amount;
    const before = await balance();
    expect((await admin.call({ method: 'POST', url: `/api/system/invoices/${invoice.id}/mark-paid`, payload: {} })).statusCode).toBe(200);
    expect(await balance()).toBe(before + 5_000);
  });
});
