import { sql, type Insertable, type Selectable } from 'kysely';
import type { PaymentInstructionsView } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import type { InvoiceLinesTable, InvoicesTable } from '../../db/schema.ts';

export type InvoiceRow = Selectable<InvoicesTable>;
export type InvoiceLineRow = Selectable<InvoiceLinesTable>;

/**
 * The next number of the tenant's year. The upsert locks the counter row until the transaction
 * ends, so numbers are handed out in commit order and a rolled-back checkout leaves no gap.
 */
export async function nextInvoiceNumber(trx: Db, tenantId: number, year: number): Promise<{ number: string; reference: string }> {
  const row = await trx
    .insertInto('invoice_counters')
    .values({ tenant_id: tenantId, year, last_number: 1 })
    .onConflict((oc) => oc.columns(['tenant_id', 'year']).doUpdateSet({ last_number: sql`invoice_counters.last_number + 1` }))
    .returning(['last_number'])
    .executeTakeFirstOrThrow();
  const sequence = String(row.last_number).padStart(6, '0');
  // The reference is the number's digits: what a bank transfer's variable symbol can carry.
  return { number: `${year}-${sequence}`, reference: `${year}${sequence}` };
}

export const insertInvoice = (trx: Db, values: Insertable<InvoicesTable>) =>
  trx
    .insertInto('invoices')
    .values({
      ...values,
      instructions: values.instructions ? sql`${JSON.stringify(values.instructions)}::jsonb` : null,
    } as Insertable<InvoicesTable>)
    .returningAll()
    .executeTakeFirstOrThrow();

export const insertInvoiceLines = async (trx: Db, values: Insertable<InvoiceLinesTable>[]): Promise<void> => {
  if (values.length) await trx.insertInto('invoice_lines').values(values).execute();
};

export const setInvoiceInstructions = (trx: Db, id: number, instructions: PaymentInstructionsView) =>
  trx
    .updateTable('invoices')
    .set({ instructions: sql`${JSON.stringify(instructions)}::jsonb` as unknown as Record<string, unknown> })
    .where('id', '=', id)
    .execute();

export const findInvoice = (db: Db, id: number) => db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst();

export const lockInvoice = (trx: Db, tenantId: number, id: number) =>
  trx.selectFrom('invoices').selectAll().where('id', '=', id).where('tenant_id', '=', tenantId).forUpdate().executeTakeFirst();

export const findInvoiceLines = (db: Db, invoiceId: number) =>
  db.selectFrom('invoice_lines').selectAll().where('invoice_id', '=', invoiceId).orderBy('id').execute();

export const findInvoiceByOrder = (db: Db, orderId: number) =>
  db.selectFrom('invoices').selectAll().where('order_id', '=', orderId).executeTakeFirst();

export const findUnpaidInvoiceByReference = (db: Db, tenantId: number, reference: string) =>
  db
    .selectFrom('invoices')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('payment_reference', '=', reference)
    .where('status', '=', 'unpaid')
    .executeTakeFirst();

export const markInvoicePaid = (trx: Db, id: number, now: Date) =>
  trx
    .updateTable('invoices')
    .set({ status: 'paid', paid_at: now })
    .where('id', '=', id)
    .where('status', '=', 'unpaid')
    .returningAll()
    .executeTakeFirst();

/** A payment under its (tenant, provider, reference) once; undefined when that reference was recorded before. */
export const insertPayment = (
  trx: Db,
  values: {
    tenant_id: number;
    invoice_id: number;
    provider: string;
    reference: string;
    amount: number;
    actor_id: number | null;
    created_at: Date;
  },
) =>
  trx
    .insertInto('payments')
    .values(values)
    .onConflict((oc) => oc.columns(['tenant_id', 'provider', 'reference']).doNothing())
    .returningAll()
    .executeTakeFirst();

export const findPaymentOf = (db: Db, invoiceId: number) =>
  db.selectFrom('payments').selectAll().where('invoice_id', '=', invoiceId).orderBy('id').limit(1).executeTakeFirst();

export interface InvoiceListFilter {
  userId?: number | undefined;
  tenantId?: number | null | undefined;
  status?: InvoiceRow['status'] | undefined;
  beforeId?: number | undefined;
  limit: number;
}

/** Newest first, with the buyer; keyset on id. */
export function listInvoices(db: Db, filter: InvoiceListFilter) {
  let query = db
    .selectFrom('invoices')
    .innerJoin('users', 'users.id', 'invoices.user_id')
    .selectAll('invoices')
    .select(['users.email as buyer_email', 'users.given_name as buyer_given_name', 'users.sn as buyer_sn']);
  if (filter.userId !== undefined) query = query.where('invoices.user_id', '=', filter.userId);
  if (filter.tenantId !== undefined && filter.tenantId !== null) query = query.where('invoices.tenant_id', '=', filter.tenantId);
  if (filter.status) query = query.where('invoices.status', '=', filter.status);
  if (filter.beforeId !== undefined) query = query.where('invoices.id', '<', filter.beforeId);
  return query.orderBy('invoices.id', 'desc').limit(filter.limit).execute();
}
export type InvoiceListRow = Awaited<ReturnType<typeof listInvoices>>[number];

export const findInvoiceWithBuyer = (db: Db, id: number) =>
  db
    .selectFrom('invoices')
    .innerJoin('users', 'users.id', 'invoices.user_id')
    .innerJoin('tenants', 'tenants.id', 'invoices.tenant_id')
    .selectAll('invoices')
    .select(['users.email as buyer_email', 'users.given_name as buyer_given_name', 'users.sn as buyer_sn', 'tenants.title as seller_title'])
    .where('invoices.id', '=', id)
    .executeTakeFirst();
export type InvoiceDetailRow = NonNullable<Awaited<ReturnType<typeof findInvoiceWithBuyer>>>;
