import { invoiceData, type EventSink } from '../webhooks/events.ts';
import type { Invoice, InvoiceListItem } from '@berth/contracts';
import type { adminInvoiceListQuerySchema, invoiceListQuerySchema } from '@berth/contracts';
import { z } from 'zod';
import type { Db } from '../../db/connection.ts';
import { decodeCursor, encodeCursor, pageOfRows } from '../../db/keyset.ts';
import { HttpError } from '../../http/errors.ts';
import type { PaymentProviderName } from '@berth/contracts';
import type { InvoiceToPay } from '../payments/provider.ts';
import { administers, assertAdmin, assertAdministeredUser } from '../tenants/scope.ts';
import type { UserRow } from '../users/queries.ts';
import { presentInvoice, presentInvoiceListItem } from './present.ts';
import { findUserById } from '../users/queries.ts';
import { findSellerDetails } from '../payments/queries.ts';
import {
  findInvoiceLines,
  findInvoiceWithBuyer,
  findUnpaidInvoiceByReference as findUnpaidByReference,
  insertInvoice,
  insertInvoiceLines,
  listInvoices,
  nextInvoiceNumber,
  type InvoiceRow,
} from './queries.ts';

export interface NewInvoiceLine {
  kind: string;
  title: string;
  period_months: number | null;
  net: number;
  discount: number;
}

export interface NewInvoice {
  tenantId: number;
  userId: number;
  kind: InvoiceRow['kind'];
  orderId: number | null;
  currency: string;
  vatRateBp: number;
  lines: NewInvoiceLine[];
  totals: { subtotal: number; discount: number; net: number; vat: number; gross: number };
  promoCode: string | null;
  provider: PaymentProviderName;
  now: Date;
  /** When it must be paid: a renewal's invoice is dunned from then (modules/billing). */
  dueAt?: Date | undefined;
}

/** Issues an invoice inside the caller's transaction: the next number of the tenant's year, its lines. */
export async function createInvoice(trx: Db, input: NewInvoice, events?: EventSink): Promise<InvoiceRow> {
  const { number, reference } = await nextInvoiceNumber(trx, input.tenantId, input.now.getUTCFullYear());
  // The buyer as they are now: a later profile change does not alter an issued invoice.
  const buyer = await findUserById(trx, input.userId);
  // The seller likewise: its legal details as set when the invoice is issued (e-invoices need them).
  const seller = await findSellerDetails(trx, input.tenantId);
  const invoice = await insertInvoice(trx, {
    seller_details: seller ?? null,
    buyer_details: buyer
      ? {
          name: [buyer.given_name, buyer.sn].filter(Boolean).join(' '),
          email: buyer.email,
          company: buyer.company,
          vat_id: buyer.vat_id,
          street: buyer.street,
          city: buyer.city,
          postal_code: buyer.postal_code,
          country: buyer.country,
        }
      : null,
    tenant_id: input.tenantId,
    user_id: input.userId,
    number,
    kind: input.kind,
    order_id: input.orderId,
    status: 'unpaid',
    currency: input.currency,
    vat_rate_bp: input.vatRateBp,
    ...input.totals,
    promo_code: input.promoCode,
    payment_provider: input.provider,
    payment_reference: reference,
    instructions: null,
    issued_at: input.now,
    paid_at: null,
    due_at: input.dueAt ?? null,
  });
  await insertInvoiceLines(
    trx,
    input.lines.map((line) => ({ invoice_id: invoice.id, ...line })),
  );
  await events?.emit(trx, invoice.tenant_id, 'invoice.created', invoiceData(invoice));
  return invoice;
}

/** What a payment provider is told about an invoice. */
export const invoiceToPay = (row: InvoiceRow): InvoiceToPay => ({
  id: row.id,
  tenant_id: row.tenant_id,
  user_id: row.user_id,
  number: row.number,
  currency: row.currency,
  total: Number(row.gross),
  payment_reference: row.payment_reference,
  kind: row.kind,
});

const idCursor = z.tuple([z.number().int()]);

/** Reading invoices: the buyer's own, and an admin's tenant's. */
export class InvoiceReader {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /** One invoice of the user (someone else's answers 404). */
  async getInvoiceForUser(user: UserRow, id: number, language: string): Promise<Invoice> {
    const row = await findInvoiceWithBuyer(this.db, id);
    if (!row || row.user_id !== user.id) throw new HttpError(404, 'http.not_found');
    return presentInvoice(row, await findInvoiceLines(this.db, row.id), language);
  }

  /** One invoice of a tenant the admin administers (else 404). */
  async getInvoiceForAdmin(admin: UserRow, id: number, language: string): Promise<Invoice> {
    assertAdmin(admin);
    const row = await findInvoiceWithBuyer(this.db, id);
    if (!row || !administers(admin, row.tenant_id)) throw new HttpError(404, 'http.not_found');
    return presentInvoice(row, await findInvoiceLines(this.db, row.id), language);
  }

  /** The invoice for a viewer: their own, or, for admins, one of a tenant they administer. */
  async getInvoiceForViewer(viewer: UserRow, id: number, language: string): Promise<Invoice> {
    const row = await findInvoiceWithBuyer(this.db, id);
    if (!row || (row.user_id !== viewer.id && !administers(viewer, row.tenant_id))) throw new HttpError(404, 'http.not_found');
    return presentInvoice(row, await findInvoiceLines(this.db, row.id), language);
  }

  async listForUser(user: UserRow, query: z.infer<typeof invoiceListQuerySchema>, language: string) {
    return this.page({ userId: user.id, status: query.status, cursor: query.cursor, limit: query.limit }, language);
  }

  /** A host admin's tenant; a super admin's request tenant (`tenantId`). */
  async listForAdmin(admin: UserRow, tenantId: number, query: z.infer<typeof adminInvoiceListQuerySchema>, language: string) {
    assertAdmin(admin);
    if (query.user_id !== undefined) await assertAdministeredUser(this.db, admin, query.user_id);
    return this.page({ tenantId, userId: query.user_id, status: query.status, cursor: query.cursor, limit: query.limit }, language);
  }

  private async page(
    filter: {
      userId?: number | undefined;
      tenantId?: number;
      status?: InvoiceRow['status'] | undefined;
      cursor?: string | undefined;
      limit: number;
    },
    language: string,
  ): Promise<{ data: InvoiceListItem[]; next_cursor: string | null }> {
    const beforeId = filter.cursor ? decodeCursor(filter.cursor, 'invoices', idCursor)[0] : undefined;
    const rows = await listInvoices(this.db, {
      userId: filter.userId,
      tenantId: filter.tenantId,
      status: filter.status,
      beforeId,
      limit: filter.limit + 1,
    });
    const page = pageOfRows(rows, filter.limit, (row) => encodeCursor('invoices', [row.id]));
    return { data: page.rows.map((row) => presentInvoiceListItem(row, language)), next_cursor: page.nextCursor };
  }

  /** An open invoice of the tenant by the reference a payer quotes (bank statement import). */
  findUnpaidInvoiceByReference(tenantId: number, reference: string): Promise<InvoiceRow | undefined> {
    return findUnpaidByReference(this.db, tenantId, reference);
  }
}
