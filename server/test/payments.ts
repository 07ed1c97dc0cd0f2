import { createInvoice } from '../src/modules/invoices/service.ts';
import type { PaymentProviderName } from '@berth/contracts';
import { addTenant } from './hosting.ts';
import type { TestApp } from './harness.ts';

/** A tenant that sells through the panel (docs/product.md §6: host_purchases), so its users have payment methods. */
export async function purchasingTenant(t: TestApp, title: string, host: string): Promise<number> {
  const id = await addTenant(t, title, host);
  await t.db.updateTable('tenants').set({ host_purchases: '/shop/cart' }).where('id', '=', id).execute();
  return id;
}

/** An unpaid invoice issued the way checkout and top-up issue them (the invoices module's own code). */
export async function issueInvoice(
  t: TestApp,
  input: {
    tenantId: number;
    userId: number;
    gross: number;
    currency?: string;
    kind?: 'order' | 'credit';
    provider?: PaymentProviderName;
    title?: string;
  },
) {
  const vatRateBp = 2100;
  const net = Math.round((input.gross * 10_000) / (10_000 + vatRateBp));
  return t.db.transaction().execute((trx) =>
    createInvoice(trx, {
      tenantId: input.tenantId,
      userId: input.userId,
      kind: input.kind ?? 'credit',
      orderId: null,
      currency: input.currency ?? 'EUR',
      vatRateBp,
      lines: [{ kind: 'credit', title: input.title ?? 'Credit top-up', period_months: null, net, discount: 0 }],
      totals: { subtotal: net, discount: 0, net, vat: input.gross - net, gross: input.gross },
      promoCode: null,
      provider: input.provider ?? 'bank_transfer',
      now: t.clock.now(),
    }),
  );
}

/** A multipart/form-data body with one file field, as browsers send uploads. */
export function multipartFile(field: string, filename: string, content: string | Buffer, contentType = 'text/csv') {
  const boundary = '----berth-test-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export const VALID_IBAN = 'DE89370400440532013000';
export const VALID_CZ_IBAN = 'CZ6508000000192000145399';
