import type { Invoice, InvoiceListItem, PaymentInstructionsView, ProductKind } from '@berth/contracts';
import { displayNameOf, iso, isoOrNull } from '../tenants/scope.ts';
import { bpToPercent, money } from '../shop/money.ts';
import type { InvoiceDetailRow, InvoiceLineRow, InvoiceListRow } from './queries.ts';

type BuyerColumns = { buyer_email: string; buyer_given_name: string; buyer_sn: string };

const buyerOf = (row: { user_id: number } & BuyerColumns) => ({
  id: row.user_id,
  email: row.buyer_email,
  display_name: displayNameOf({ email: row.buyer_email, given_name: row.buyer_given_name, sn: row.buyer_sn }),
});

export function presentInvoiceListItem(row: InvoiceListRow, language: string): InvoiceListItem {
  return {
    id: row.id,
    number: row.number,
    kind: row.kind,
    status: row.status,
    gross: money(Number(row.gross), row.currency, language),
    payment_provider: row.payment_provider,
    issued_at: iso(row.issued_at),
    paid_at: isoOrNull(row.paid_at),
    buyer: buyerOf(row),
  };
}

export function presentInvoice(row: InvoiceDetailRow, lines: InvoiceLineRow[], language: string): Invoice {
  const m = (amount: number | bigint) => money(Number(amount), row.currency, language);
  return {
    ...presentInvoiceListItem(row, language),
    order_id: row.order_id,
    currency: row.currency,
    vat_rate: bpToPercent(row.vat_rate_bp),
    lines: lines.map((line) => ({
      title: line.title,
      kind: line.kind as ProductKind | 'credit',
      period_months: line.period_months,
      net: m(line.net),
      discount: m(line.discount),
    })),
    totals: { subtotal: m(row.subtotal), discount: m(row.discount), net: m(row.net), vat: m(row.vat), gross: m(row.gross) },
    promo_code: row.promo_code,
    payment_reference: row.payment_reference,
    // How to pay matters only while the invoice is open.
    instructions: row.status === 'unpaid' && row.instructions ? (row.instructions as PaymentInstructionsView) : null,
    seller: { title: row.seller_title },
    e_invoice: row.seller_details !== null,
  };
}
