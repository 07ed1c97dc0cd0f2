import { sql, type Insertable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { CardChargesTable, PaymentMethodsTable, SellerDetails } from '../../db/schema.ts';

/* ---- the tenant's bank account ---- */

export const findTenantBankAccount = (db: Db, tenantId: number) =>
  db.selectFrom('tenant_bank_accounts').select(['account_name', 'iban', 'bic']).where('tenant_id', '=', tenantId).executeTakeFirst();

export const upsertTenantBankAccount = (
  db: Db,
  values: { tenant_id: number; account_name: string; iban: string; bic: string | null; updated_at: Date },
) =>
  db
    .insertInto('tenant_bank_accounts')
    .values(values)
    .onConflict((oc) =>
      oc
        .column('tenant_id')
        .doUpdateSet({ account_name: values.account_name, iban: values.iban, bic: values.bic, updated_at: values.updated_at }),
    )
    .execute();

export const deleteTenantBankAccount = (db: Db, tenantId: number) =>
  db.deleteFrom('tenant_bank_accounts').where('tenant_id', '=', tenantId).executeTakeFirst();

/* ---- the seller's legal details (e-invoices) ---- */

const SELLER_COLUMNS = ['legal_name', 'street', 'city', 'postal_code', 'country', 'vat_id', 'email', 'phone'] as const;

export const findSellerDetails = (db: Db, tenantId: number): Promise<SellerDetails | undefined> =>
  db.selectFrom('tenant_seller_details').select(SELLER_COLUMNS).where('tenant_id', '=', tenantId).executeTakeFirst();

export const upsertSellerDetails = (db: Db, tenantId: number, values: SellerDetails, now: Date) =>
  db
    .insertInto('tenant_seller_details')
    .values({ tenant_id: tenantId, ...values, updated_at: now })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ ...values, updated_at: now }))
    .execute();

/* ---- Stripe Customers (a saved card is charged through its user's Customer) ---- */

export const findStripeCustomer = (db: Db, userId: number) =>
  db.selectFrom('stripe_customers').select(['user_id', 'customer_id']).where('user_id', '=', userId).executeTakeFirst();

export const findStripeCustomerOwner = (db: Db, customerId: string) =>
  db.selectFrom('stripe_customers').select(['user_id']).where('customer_id', '=', customerId).executeTakeFirst();

/** Keeps the first Customer a user got (two requests at once both ask Stripe, with one idempotency key). */
export const insertStripeCustomer = (db: Db, userId: number, customerId: string) =>
  db
    .insertInto('stripe_customers')
    .values({ user_id: userId, customer_id: customerId })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();

/* ---- renewals charged to a saved card ---- */

/** The user's default card when it can be charged off-session (attached to their Customer). */
export const findChargeableCard = (db: Db, userId: number) =>
  db
    .selectFrom('payment_methods')
    .select(['id', 'stripe_payment_method_id', 'stripe_customer_id'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'card')
    .where('is_default', '=', true)
    .where('stripe_customer_id', 'is not', null)
    .executeTakeFirst();

export const findCardCharge = (db: Db, invoiceId: number, step: number) =>
  db
    .selectFrom('card_charges')
    .select(['status', 'problem'])
    .where('invoice_id', '=', invoiceId)
    .where('step', '=', step)
    .executeTakeFirst();

/** One row per invoice and step: a later state (pending → succeeded or failed) replaces the earlier. */
export const recordCardCharge = (db: Db, values: Insertable<CardChargesTable>) =>
  db
    .insertInto('card_charges')
    .values(values)
    .onConflict((oc) =>
      oc
        .columns(['invoice_id', 'step'])
        .doUpdateSet({ status: values.status, reference: values.reference ?? null, problem: values.problem ?? null }),
    )
    .execute();

/* ---- saved payment methods ---- */

export type PaymentMethodRow = NonNullable<Awaited<ReturnType<typeof findPaymentMethod>>>;

/** The default first, then in the order they were added. */
export const listPaymentMethods = (db: Db, userId: number) =>
  db.selectFrom('payment_methods').selectAll().where('user_id', '=', userId).orderBy('is_default', 'desc').orderBy('id').execute();

export const findPaymentMethod = (db: Db, userId: number, id: number) =>
  db.selectFrom('payment_methods').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();

export const findPaymentMethodByStripeId = (db: Db, userId: number, stripePaymentMethodId: string) =>
  db
    .selectFrom('payment_methods')
    .selectAll()
    .where('user_id', '=', userId)
    .where('stripe_payment_method_id', '=', stripePaymentMethodId)
    .executeTakeFirst();

/** The currency the tenant's shop sells in (EUR, the shop's default, before its settings exist). */
export const findShopCurrency = async (db: Db, tenantId: number): Promise<string> =>
  (await db.selectFrom('shop_settings').select('currency').where('tenant_id', '=', tenantId).executeTakeFirst())?.currency ?? 'EUR';

/** Key space of the per-user lock on payment methods (the two-int advisory lock form). */
const PAYMENT_METHODS_LOCK = 727_275;

/**
 * Serialises changes to one user's methods until the transaction ends (adds included, which row
 * locks cannot cover), then returns them, default first.
 */
export const lockPaymentMethods = async (db: Db, userId: number) => {
  await sql`select pg_advisory_xact_lock(${PAYMENT_METHODS_LOCK}, ${userId})`.execute(db);
  return db
    .selectFrom('payment_methods')
    .select(['id', 'is_default'])
    .where('user_id', '=', userId)
    .orderBy('is_default', 'desc')
    .orderBy('id')
    .execute();
};

export const insertPaymentMethod = (db: Db, values: Insertable<PaymentMethodsTable>) =>
  db.insertInto('payment_methods').values(values).returningAll().executeTakeFirstOrThrow();

/** Makes `id` the user's only default (clearing first, so the one-default index never sees two). */
export const setDefaultPaymentMethod = async (db: Db, userId: number, id: number): Promise<void> => {
  await db
    .updateTable('payment_methods')
    .set({ is_default: false })
    .where('user_id', '=', userId)
    .where('is_default', '=', true)
    .where('id', '!=', id)
    .execute();
  await db.updateTable('payment_methods').set({ is_default: true }).where('user_id', '=', userId).where('id', '=', id).execute();
};

export const deletePaymentMethod = (db: Db, userId: number, id: number) =>
  db.deleteFrom('payment_methods').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();

/* ---- invoices (read here to confirm, match and print them; written by the invoices module) ---- */

export type InvoiceRow = NonNullable<Awaited<ReturnType<typeof findInvoice>>>;

export const findInvoice = (db: Db, id: number) =>
  db
    .selectFrom('invoices')
    .select([
      'id',
      'tenant_id',
      'user_id',
      'number',
      'kind',
      'status',
      'currency',
      'vat_rate_bp',
      'subtotal',
      'discount',
      'net',
      'vat',
      'gross',
      'promo_code',
      'payment_provider',
      'payment_reference',
      'issued_at',
      'paid_at',
      'buyer_details',
      'seller_details',
      'due_at',
    ])
    .where('id', '=', id)
    .executeTakeFirst();

export const listInvoiceLines = (db: Db, invoiceId: number) =>
  db
    .selectFrom('invoice_lines')
    .select(['title', 'kind', 'period_months', 'net', 'discount'])
    .where('invoice_id', '=', invoiceId)
    .orderBy('id')
    .execute();

/**
 * The tenant's invoices whose payment reference is `reference` (compared without spaces and case;
 * numeric references also without leading zeros, as banks often pad variable symbols).
 */
export const findInvoicesByReference = (db: Db, tenantId: number, reference: string) => {
  const normalised = reference.replace(/\s+/g, '').toUpperCase();
  const numeric = /^\d+$/.test(normalised) ? normalised.replace(/^0+(?=\d)/, '') : null;
  const column = sql<string>`upper(regexp_replace(payment_reference, '\\s', '', 'g'))`;
  return db
    .selectFrom('invoices')
    .select(['id', 'number', 'status', 'currency', 'gross', 'payment_reference'])
    .where('tenant_id', '=', tenantId)
    .where((eb) =>
      numeric === null
        ? eb(column, '=', normalised)
        : eb.or([
            eb(column, '=', normalised),
            eb(sql<string>`case when ${column} ~ '^[0-9]+$' then ltrim(${column}, '0') end`, '=', numeric),
          ]),
    )
    .orderBy('id')
    .execute();
};

/* ---- buyer and seller (for the invoice PDF) ---- */

export const findInvoiceParties = async (db: Db, tenantId: number, userId: number) => {
  const [tenant, buyer] = await Promise.all([
    db.selectFrom('tenants').select(['title']).where('id', '=', tenantId).executeTakeFirst(),
    db.selectFrom('users').select(['email', 'given_name', 'sn']).where('id', '=', userId).executeTakeFirst(),
  ]);
  return { tenant, buyer };
};

/* ---- Stripe events ---- */

export const findStripeEvent = (db: Db, id: string) =>
  db.selectFrom('stripe_events').select(['id', 'outcome']).where('id', '=', id).executeTakeFirst();

/** Records a handled event; a second delivery of the same id changes nothing. */
export const recordStripeEvent = (
  db: Db,
  values: { id: string; type: string; tenant_id: number | null; invoice_id: number | null; outcome: string; received_at: Date },
) =>
  db
    .insertInto('stripe_events')
    .values(values)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
