import { z } from 'zod';
import { cartRowSchema } from './shell.ts';
import { idSchema, pageOf, pageQuerySchema, timestampInputSchema } from './hosting.ts';

/*
 * The commercial side: catalogue, server-side cart, checkout, orders, invoices, the credit ledger,
 * partner commission and promo codes. Money is an integer amount of minor units (cents) with its
 * currency; answers also carry it formatted in the user's language. Lists answer
 * `{ data: [...], next_cursor }` (keyset pages, as in hosting.ts).
 *
 * Routes (all under /api; every signed-in user unless noted):
 *   GET    /shop/products                      catalogueAnswerSchema
 *   GET    /shop/domain-check?name=            domainCheckAnswerSchema
 *   GET    /shop/payment-options               paymentOptionsAnswerSchema
 *   POST   /shop/checkout                      checkoutPayloadSchema -> checkoutAnswerSchema (201; 200 on a repeated key);
 *                                               with `item`, that one product instead of the cart
 *   GET    /shop/subscriptions                 subscriptionsAnswerSchema
 *   PATCH  /shop/subscriptions/{id}            subscriptionPatchSchema -> subscriptionAnswerSchema
 *   GET    /cart                               shopCartAnswerSchema
 *   POST   /cart/items                         cartAddPayloadSchema -> shopCartAnswerSchema
 *   PATCH  /cart/items/{id}                    cartPeriodPayloadSchema -> shopCartAnswerSchema
 *   DELETE /cart/items/{id}                    shopCartAnswerSchema
 *   POST   /cart/promo                         cartPromoPayloadSchema -> shopCartAnswerSchema (422 on `code`)
 *   DELETE /cart/promo                         shopCartAnswerSchema
 *   GET    /credit?from&to&type&cursor&limit   creditAnswerSchema
 *   GET    /credit/export.csv?from&to&type     text/csv
 *   POST   /credit/top-up                      topUpPayloadSchema -> topUpAnswerSchema (201)
 *   GET    /account/invoices?status&cursor     invoiceListAnswerSchema
 *   GET    /account/invoices/{id}              invoiceAnswerSchema
 *   host admins (their tenant) and super admins:
 *   GET    /system/invoices?status&user_id     invoiceListAnswerSchema
 *   POST   /system/credit/adjustments          creditAdjustmentPayloadSchema -> creditAdjustmentAnswerSchema (201)
 *   GET    /system/shop/catalogue              adminCatalogueAnswerSchema
 *   PATCH  /system/shop/settings               shopSettingsPayloadSchema -> adminCatalogueAnswerSchema
 *   POST   /system/shop/plans, PATCH|DELETE /system/shop/plans/{id}   hostingPlanPayloadSchema|hostingPlanPatchSchema -> hostingPlanAnswerSchema
 *   POST   /system/shop/tlds,  PATCH|DELETE /system/shop/tlds/{id}    tldPricePayloadSchema|tldPricePatchSchema -> tldPriceAnswerSchema
 *   host admins of host_purchases tenants and super admins:
 *   GET    /system/partner/promo?cursor        promoListAnswerSchema
 *   POST   /system/partner/promo               promoPayloadSchema -> promoAnswerSchema (201)
 *   PATCH  /system/partner/promo/{id}          promoPatchSchema -> promoAnswerSchema
 *   DELETE /system/partner/promo/{id}          messageAnswerSchema
 * Every cart change (and a checkout that empties the cart) emits `cart-updated` on realtimeChannel.cart(userId).
 */

/* ---- money ---- */

/** VAT of a net amount in minor units at a rate in basis points (2100 = 21 %), rounded half away from zero: the server's invoices and the web's totals agree. */
export const vatOf = (net: number, rateBp: number): number => Math.sign(net) * Math.round((Math.abs(net) * rateBp) / 10_000);

export const CURRENCIES = ['EUR', 'CZK', 'USD', 'GBP'] as const;
export const currencySchema = z.enum(CURRENCIES);
export type Currency = z.infer<typeof currencySchema>;

/** Largest amount accepted anywhere (minor units): 10 million in major units. */
export const MONEY_MAX = 1_000_000_000;
/** An amount in minor units as input (prices, top-ups): whole, not negative. */
export const amountInputSchema = z.number().int().min(0).max(MONEY_MAX);

export const moneySchema = z.object({
  /** Minor units (e.g. cents); may be negative in the ledger. */
  amount: z.number().int(),
  currency: z.string(),
  /** Formatted in the user's language, e.g. "€12.10" / "12,10 €". */
  formatted: z.string(),
});
export type Money = z.infer<typeof moneySchema>;

/** A price without VAT, the VAT and with VAT. */
export const priceSchema = z.object({ net: moneySchema, vat: moneySchema, gross: moneySchema });
export type Price = z.infer<typeof priceSchema>;

/** Totals of a cart, order or invoice: net subtotal before the promo, the discount, then net/VAT/gross. */
export const totalsSchema = z.object({
  subtotal: moneySchema,
  discount: moneySchema,
  net: moneySchema,
  vat: moneySchema,
  gross: moneySchema,
});
export type Totals = z.infer<typeof totalsSchema>;

/* ---- catalogue ---- */

/** What a cart row or order line buys. */
export const PRODUCT_KINDS = ['hosting', 'domain_register', 'domain_renew', 'domain_transfer'] as const;
export const productKindSchema = z.enum(PRODUCT_KINDS);
export type ProductKind = z.infer<typeof productKindSchema>;

/** Billing periods in months: hosting monthly or yearly; domains by whole years (1–10). */
export const HOSTING_PERIODS = [1, 12, 24] as const;
export const DOMAIN_PERIODS = [12, 24, 36, 48, 60, 72, 84, 96, 108, 120] as const;
/** A transfer adds exactly one year. */
export const TRANSFER_PERIODS = [12] as const;
export const periodSchema = z.number().int().min(1).max(120);

export const hostingPlanSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  /** Price of one month / one year (net, VAT, gross). */
  monthly: priceSchema,
  yearly: priceSchema,
  active: z.boolean(),
  /** What the plan includes; null is unlimited. Disk is the mailbox quotas together. */
  max_domains: z.number().int().nullable(),
  max_mailboxes: z.number().int().nullable(),
  disk_gb: z.number().int().nullable(),
  /** The customer's PHP pool: workers at once and memory per request; null is the web server's default. */
  php_workers: z.number().int().nullable(),
  php_memory_mb: z.number().int().nullable(),
  /** Messages each mailbox may send per hour (null: the platform's default, MAIL_SEND_PER_HOUR_DEFAULT). */
  mail_per_hour: z.number().int().nullable(),
});
export type HostingPlan = z.infer<typeof hostingPlanSchema>;

/** A TLD without the leading dot, lower case, may have two labels ("co.uk"). */
export const tldSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9-]{2,63}(\.[a-z0-9-]{2,63})?$/, { error: 'validation.invalid' });

export const tldPriceSchema = z.object({
  id: z.number().int(),
  tld: z.string(),
  /** Prices per year. */
  register: priceSchema,
  renew: priceSchema,
  transfer: priceSchema,
  active: z.boolean(),
});
export type TldPrice = z.infer<typeof tldPriceSchema>;

/** GET /api/shop/products: what the tenant sells (active products only). */
export const catalogueSchema = z.object({
  currency: z.string(),
  /** Percent, e.g. 21 for 21 %. */
  vat_rate: z.number(),
  plans: z.array(hostingPlanSchema),
  tlds: z.array(tldPriceSchema),
});
export type Catalogue = z.infer<typeof catalogueSchema>;
export const catalogueAnswerSchema = z.object({ data: catalogueSchema });

/** GET /api/shop/domain-check?name=example.com */
export const domainCheckQuerySchema = z.object({ name: z.string().trim().min(1).max(253) });
export const domainCheckSchema = z.object({
  /** Punycode as stored. */
  name: z.string(),
  /** As people write it (Unicode for IDN). */
  text: z.string(),
  tld: z.string(),
  /** Free to register in this panel: not already a domain of the panel and the TLD is sold. */
  available: z.boolean(),
  /** Why not: `taken` (already in the panel), `unsupported_tld` (not sold here), `invalid` (not a domain name). */
  reason: z.enum(['taken', 'unsupported_tld', 'invalid']).nullable(),
  /** The TLD's prices, null when the TLD is not sold. */
  price: tldPriceSchema.nullable(),
});
export type DomainCheck = z.infer<typeof domainCheckSchema>;
export const domainCheckAnswerSchema = z.object({ data: domainCheckSchema });

/* ---- catalogue administration (/api/system/shop/..., host admins for their tenant, super admins) ---- */

export const shopSettingsSchema = z.object({
  currency: currencySchema,
  /** Percent with up to two decimals (0–100). */
  vat_rate: z.number().min(0).max(100),
  /** Partner commission, percent of each paid order of the tenant's customers (0–100). */
  commission_rate: z.number().min(0).max(100),
  /** Credit top-up limits, minor units. */
  top_up_min: amountInputSchema,
  top_up_max: amountInputSchema,
  /** Days before expiry a domain is renewed automatically (modules/billing on the server). */
  renew_days_before: z.number().int().min(1).max(60),
  /** Days past its due date an unpaid renewal is tolerated before the customer's services are suspended. */
  grace_days: z.number().int().min(0).max(90),
});
export type ShopSettings = z.infer<typeof shopSettingsSchema>;
export const shopSettingsPayloadSchema = shopSettingsSchema.partial();
export type ShopSettingsPayload = z.infer<typeof shopSettingsPayloadSchema>;

/** GET /api/system/shop/catalogue: settings and every product, inactive ones included. */
export const adminCatalogueSchema = z.object({
  settings: shopSettingsSchema,
  plans: z.array(hostingPlanSchema),
  tlds: z.array(tldPriceSchema),
});
export const adminCatalogueAnswerSchema = z.object({ data: adminCatalogueSchema, message: z.string().optional() });

/** A plan's limit: a whole number from 1, or null for unlimited. */
export const planLimitSchema = z
  .number()
  .int()
  .min(1, { error: 'shop.plan_limit' })
  .max(1_000_000, { error: 'shop.plan_limit' })
  .nullable();

/** PHP workers of a plan's pool (null: the server's default, 5). */
export const phpWorkersSchema = z.number().int().min(1, { error: 'shop.php_workers' }).max(100, { error: 'shop.php_workers' }).nullable();
/** PHP's memory per request in MB (null: the server's default, 128). */
export const phpMemorySchema = z.number().int().min(32, { error: 'shop.php_memory' }).max(2048, { error: 'shop.php_memory' }).nullable();

/** Messages a mailbox may send per hour when its owner's plan says nothing (mail that leaves is never unlimited). */
export const MAIL_SEND_PER_HOUR_DEFAULT = 200;
/**
 * A domain may send this many times its plan's per-mailbox figure an hour, all its mailboxes and
 * the mail its forwarders pass on to the outside together (migration 0044_mail_domain_limits):
 * several stolen passwords of one domain, or a forwarder flooded from outside, stop there.
 */
export const MAIL_SEND_DOMAIN_FACTOR = 10;
/** Messages each mailbox of a plan may send per hour (null: MAIL_SEND_PER_HOUR_DEFAULT). */
export const mailPerHourSchema = z
  .number()
  .int()
  .min(1, { error: 'shop.mail_per_hour' })
  .max(100_000, { error: 'shop.mail_per_hour' })
  .nullable();

/** POST /api/system/shop/plans; PATCH /api/system/shop/plans/{id} takes any subset. Prices net, minor units. */
export const hostingPlanPayloadSchema = z.object({
  title: z.string().trim().min(1).max(100),
  description: z.string().trim().max(1000).default(''),
  monthly_price: amountInputSchema,
  yearly_price: amountInputSchema,
  active: z.boolean().default(true),
  max_domains: planLimitSchema.default(null),
  max_mailboxes: planLimitSchema.default(null),
  disk_gb: planLimitSchema.default(null),
  php_workers: phpWorkersSchema.default(null),
  php_memory_mb: phpMemorySchema.default(null),
  mail_per_hour: mailPerHourSchema.default(null),
});
export type HostingPlanPayload = z.infer<typeof hostingPlanPayloadSchema>;
export const hostingPlanPatchSchema = z.object({
  title: z.string().trim().min(1).max(100).optional(),
  description: z.string().trim().max(1000).optional(),
  monthly_price: amountInputSchema.optional(),
  yearly_price: amountInputSchema.optional(),
  active: z.boolean().optional(),
  max_domains: planLimitSchema.optional(),
  max_mailboxes: planLimitSchema.optional(),
  disk_gb: planLimitSchema.optional(),
  php_workers: phpWorkersSchema.optional(),
  php_memory_mb: phpMemorySchema.optional(),
  mail_per_hour: mailPerHourSchema.optional(),
});
export const hostingPlanAnswerSchema = z.object({ data: hostingPlanSchema, message: z.string().optional() });

/** POST /api/system/shop/tlds; PATCH /api/system/shop/tlds/{id} takes any subset. Prices per year, net, minor units. */
export const tldPricePayloadSchema = z.object({
  tld: tldSchema,
  register_price: amountInputSchema,
  renew_price: amountInputSchema,
  transfer_price: amountInputSchema,
  active: z.boolean().default(true),
});
export type TldPricePayload = z.infer<typeof tldPricePayloadSchema>;
export const tldPricePatchSchema = z.object({
  register_price: amountInputSchema.optional(),
  renew_price: amountInputSchema.optional(),
  transfer_price: amountInputSchema.optional(),
  active: z.boolean().optional(),
});
export const tldPriceAnswerSchema = z.object({ data: tldPriceSchema, message: z.string().optional() });

/* ---- cart (/api/cart) ---- */

/**
 * A cart row: extends the shell's `{ id, title, price_formatted }` (the badge counts rows).
 * Prices are the catalogue's current ones; a row whose product is no longer sold is `available: false`
 * and blocks checkout until removed.
 */
export const shopCartRowSchema = cartRowSchema.extend({
  kind: productKindSchema,
  /** Hosting rows: the plan. */
  plan_id: z.number().int().nullable(),
  /** Domain rows: the name (punycode) and as written. */
  domain_name: z.string().nullable(),
  domain_text: z.string().nullable(),
  /** Renewal rows: the panel's domain being renewed. */
  domain_id: z.number().int().nullable(),
  period_months: z.number().int(),
  /** The periods this row may switch to. */
  periods: z.array(z.number().int()),
  /** Price of the chosen period (net/VAT/gross), before any promo. */
  price: priceSchema,
  /** The promo's discount on this row (net), zero when none applies. */
  discount: moneySchema,
  available: z.boolean(),
});
export type ShopCartRow = z.infer<typeof shopCartRowSchema>;

export const appliedPromoSchema = z.object({
  code: z.string(),
  /** "10 %" or "€5.00" */
  label: z.string(),
  /** Why the code gives no discount right now (expired, used up...), translated; null when it applies. */
  problem: z.string().nullable(),
});

export const shopCartSchema = z.object({
  rows: z.array(shopCartRowSchema),
  promo: appliedPromoSchema.nullable(),
  totals: totalsSchema,
  currency: z.string(),
  vat_rate: z.number(),
});
export type ShopCart = z.infer<typeof shopCartSchema>;
/** GET /api/cart and the answer of every cart change; parses with the shell's cartAnswerSchema too. */
export const shopCartAnswerSchema = z.object({ data: shopCartSchema, message: z.string().optional() });

/** POST /api/cart/items */
export const cartAddPayloadSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('hosting'),
    plan_id: idSchema,
    period_months: periodSchema.default(12),
    /** One of the user's plans to extend (a renewal), instead of buying another. */
    subscription_id: idSchema.optional(),
  }),
  z.object({ kind: z.literal('domain_register'), name: z.string().trim().min(1).max(253), period_months: periodSchema.default(12) }),
  z.object({ kind: z.literal('domain_transfer'), name: z.string().trim().min(1).max(253), period_months: periodSchema.default(12) }),
  z.object({ kind: z.literal('domain_renew'), domain_id: idSchema, period_months: periodSchema.default(12) }),
]);
export type CartAddPayload = z.infer<typeof cartAddPayloadSchema>;

/** PATCH /api/cart/items/{id} */
export const cartPeriodPayloadSchema = z.object({ period_months: periodSchema });

/** POST /api/cart/promo (DELETE /api/cart/promo removes it) */
export const cartPromoPayloadSchema = z.object({ code: z.string().trim().min(1).max(40) });

/* ---- payment ---- */

export const PAYMENT_PROVIDERS = ['credit', 'bank_transfer', 'stripe'] as const;
export const paymentProviderSchema = z.enum(PAYMENT_PROVIDERS);
export type PaymentProviderName = z.infer<typeof paymentProviderSchema>;

/** GET /api/shop/payment-options: the ways to pay offered for this tenant. */
export const paymentOptionSchema = z.object({ id: paymentProviderSchema, enabled: z.boolean() });
export const paymentOptionsAnswerSchema = z.object({ data: z.array(paymentOptionSchema) });

/** How to pay an unpaid invoice: what a payment provider (server/src/modules/payments/provider.ts) answers. */
export const paymentInstructionsSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('bank_transfer'),
    account_name: z.string(),
    iban: z.string(),
    bic: z.string().nullable(),
    reference: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    qr_svg: z.string(),
  }),
  z.object({ kind: z.literal('redirect'), url: z.string() }),
]);
export type PaymentInstructionsView = z.infer<typeof paymentInstructionsSchema>;

/* ---- invoices (/api/account/invoices, /api/system/invoices) ---- */

export const INVOICE_STATUSES = ['unpaid', 'paid', 'cancelled'] as const;
export const invoiceStatusSchema = z.enum(INVOICE_STATUSES);
export type InvoiceStatus = z.infer<typeof invoiceStatusSchema>;
export const INVOICE_KINDS = ['order', 'credit'] as const;
export const invoiceKindSchema = z.enum(INVOICE_KINDS);

export const invoiceLineSchema = z.object({
  title: z.string(),
  kind: z.union([productKindSchema, z.literal('credit')]),
  period_months: z.number().int().nullable(),
  /** Net before discount. */
  net: moneySchema,
  discount: moneySchema,
});

const buyerSchema = z.object({ id: z.number().int(), email: z.string(), display_name: z.string() });

export const invoiceListItemSchema = z.object({
  id: z.number().int(),
  /** Per tenant, without gaps: `2026-000123`. */
  number: z.string(),
  kind: invoiceKindSchema,
  status: invoiceStatusSchema,
  gross: moneySchema,
  payment_provider: paymentProviderSchema,
  issued_at: z.string(),
  paid_at: z.string().nullable(),
  buyer: buyerSchema,
});
export type InvoiceListItem = z.infer<typeof invoiceListItemSchema>;
export const invoiceListAnswerSchema = pageOf(invoiceListItemSchema);

export const invoiceListQuerySchema = pageQuerySchema.extend({
  status: invoiceStatusSchema.optional(),
});
/** GET /api/system/invoices: admins; `user_id` narrows to one buyer of the tenant. */
export const adminInvoiceListQuerySchema = invoiceListQuerySchema.extend({ user_id: idSchema.optional() });

export const invoiceSchema = invoiceListItemSchema.extend({
  order_id: z.number().int().nullable(),
  currency: z.string(),
  vat_rate: z.number(),
  lines: z.array(invoiceLineSchema),
  totals: totalsSchema,
  promo_code: z.string().nullable(),
  payment_reference: z.string(),
  /** For unpaid bank-transfer invoices: where and how to pay. */
  instructions: paymentInstructionsSchema.nullable(),
  seller: z.object({ title: z.string() }),
  /**
   * Whether the invoice is also an EN 16931 e-invoice: it was issued with the seller's legal
   * details. Its PDF then carries Factur-X, and /invoices/{id}/e-invoice gives the XML.
   */
  e_invoice: z.boolean(),
});
export type Invoice = z.infer<typeof invoiceSchema>;
export const invoiceAnswerSchema = z.object({ data: invoiceSchema, message: z.string().optional() });
/** POST /api/account/invoices/{id}/pay: an unpaid invoice paid from the payer's credit. */
export const invoicePayPayloadSchema = z.object({ payment: z.literal('credit') });
export type InvoicePayPayload = z.infer<typeof invoicePayPayloadSchema>;

/* ---- checkout (/api/shop/checkout) ---- */

/** The `Idempotency-Key` header is accepted instead of `idempotency_key`. */
export const idempotencyKeySchema = z
  .string()
  .trim()
  .min(8)
  .max(100)
  .regex(/^[A-Za-z0-9._:-]+$/, { error: 'validation.invalid' });

export const checkoutPayloadSchema = z.object({
  payment: paymentProviderSchema,
  payment_method_id: idSchema.nullable().optional(),
  idempotency_key: idempotencyKeySchema.optional(),
  /** "Buy now": order this one product instead of the cart, which stays as it is (no promo code). */
  item: cartAddPayloadSchema.optional(),
});
export type CheckoutPayload = z.infer<typeof checkoutPayloadSchema>;

export const ORDER_STATUSES = ['pending', 'paid', 'cancelled'] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);

export const checkoutResultSchema = z.object({
  order_id: z.number().int(),
  status: orderStatusSchema,
  invoice: invoiceSchema,
});
export type CheckoutResult = z.infer<typeof checkoutResultSchema>;
/** 201 on a new order, 200 when the idempotency key repeats an earlier one. */
export const checkoutAnswerSchema = z.object({ data: checkoutResultSchema, message: z.string().optional() });

/** GET /api/shop/subscriptions: the user's hosting plans bought in the shop. */
export const subscriptionSchema = z.object({
  id: z.number().int(),
  plan_id: z.number().int().nullable(),
  title: z.string(),
  starts_at: z.string(),
  expires_at: z.string(),
  /** Paid up to now: its expiry is still ahead. */
  active: z.boolean().optional(),
  /** Renewed by the billing pass before it ends (from credit, else an invoice due on its end date). */
  auto_renew: z.boolean().optional(),
  /** Its renewal's invoice while it waits to be paid (the dashboard lists it too). */
  renewal_invoice: z
    .object({ id: z.number().int(), number: z.string(), amount: z.string(), due_at: z.string().nullable() })
    .nullable()
    .optional(),
  /** The plan as the shop sells it now (prices), null when the plan has been deleted. */
  plan: hostingPlanSchema.nullable().optional(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;
const planAmountsSchema = z.object({
  domains: z.number().int().nullable(),
  mailboxes: z.number().int().nullable(),
  disk_mb: z.number().int().nullable(),
});
/** What the active plans include together (null: unlimited) beside what the customer uses of it. */
export const planUsageSchema = z.object({
  /** Null when the customer never bought a plan: nothing limits them. */
  allowance: planAmountsSchema.extend({ active: z.boolean() }).nullable(),
  used: z.object({ domains: z.number().int(), mailboxes: z.number().int(), disk_mb: z.number().int() }),
});
export type PlanUsage = z.infer<typeof planUsageSchema>;
/** POST /api/shop/subscriptions/{id}/cancel: the plan ends now; the unused time goes to credit. */
export const subscriptionCancelAnswerSchema = z.object({
  data: z.object({ refunded: z.number().int(), formatted: z.string() }),
  message: z.string(),
});
/**
 * POST /api/shop/subscriptions/{id}/change: upgrade or downgrade in one step. The plan ends now,
 * its unused days go to the credit, and the credit pays the new plan (answered like a checkout).
 */
export const subscriptionChangePayloadSchema = z.object({
  plan_id: idSchema,
  period_months: periodSchema.default(12),
  idempotency_key: idempotencyKeySchema,
});
export type SubscriptionChangePayload = z.input<typeof subscriptionChangePayloadSchema>;
/** PATCH /api/shop/subscriptions/{id}: the owner switches its automatic renewal. */
export const subscriptionPatchSchema = z.object({ auto_renew: z.boolean() });
export const subscriptionAnswerSchema = z.object({ data: subscriptionSchema, message: z.string() });
export const subscriptionsAnswerSchema = z.object({ data: z.array(subscriptionSchema), usage: planUsageSchema.optional() });

/* ---- credit (/api/credit, /api/system/credit) ---- */

export const CREDIT_ENTRY_TYPES = ['top_up', 'purchase', 'commission', 'manual', 'refund'] as const;
export const creditEntryTypeSchema = z.enum(CREDIT_ENTRY_TYPES);
export type CreditEntryType = z.infer<typeof creditEntryTypeSchema>;

export const creditEntrySchema = z.object({
  id: z.number().int(),
  type: creditEntryTypeSchema,
  /** Signed: credits positive, debits negative. */
  amount: moneySchema,
  description: z.string(),
  invoice_id: z.number().int().nullable(),
  created_at: z.string(),
});
export type CreditEntry = z.infer<typeof creditEntrySchema>;

/** GET /api/credit and /api/credit/export.csv: filters. `to` is inclusive when a date. */
export const creditQuerySchema = pageQuerySchema.extend({
  from: timestampInputSchema.optional(),
  to: timestampInputSchema.optional(),
  type: creditEntryTypeSchema.optional(),
});
export type CreditQuery = z.infer<typeof creditQuerySchema>;

export const creditAnswerSchema = z.object({
  data: z.object({
    balance: moneySchema,
    top_up: z.object({ min: moneySchema, max: moneySchema }),
    entries: z.array(creditEntrySchema),
  }),
  next_cursor: z.string().nullable(),
});
export type CreditAnswer = z.infer<typeof creditAnswerSchema>;

/** POST /api/credit/top-up: `amount` in minor units within the tenant's limits. */
export const topUpPayloadSchema = z.object({
  amount: z.number().int().positive().max(MONEY_MAX),
  payment: z.enum(['bank_transfer', 'stripe']),
  payment_method_id: idSchema.nullable().optional(),
});
export type TopUpPayload = z.infer<typeof topUpPayloadSchema>;
export const topUpAnswerSchema = z.object({ data: z.object({ invoice: invoiceSchema }), message: z.string().optional() });

/** POST /api/system/credit/adjustments: an admin credits (positive) or debits (negative) a user of the tenant. */
export const creditAdjustmentPayloadSchema = z.object({
  user_id: idSchema,
  amount: z
    .number()
    .int()
    .min(-MONEY_MAX)
    .max(MONEY_MAX)
    .refine((value) => value !== 0, { error: 'validation.invalid' }),
  description: z.string().trim().min(1).max(200),
});
export type CreditAdjustmentPayload = z.infer<typeof creditAdjustmentPayloadSchema>;
export const creditAdjustmentAnswerSchema = z.object({
  data: z.object({ user_id: z.number().int(), balance: moneySchema, entry: creditEntrySchema }),
  message: z.string().optional(),
});

/* ---- promo codes (/api/system/partner/promo) ---- */

export const PROMO_KINDS = ['percent', 'fixed'] as const;
export const promoKindSchema = z.enum(PROMO_KINDS);

export const promoCodeTextSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9_-]{3,40}$/, { error: 'validation.invalid' });

/**
 * Product restriction: a row qualifies when its kind is in `kinds` (empty = any kind), and, for hosting
 * rows, its plan is in `plan_ids` (empty = any plan), and, for domain rows, its TLD is in `tlds` (empty = any).
 */
const promoFields = {
  code: promoCodeTextSchema,
  kind: promoKindSchema,
  /** Percent (1–100) for `percent`; minor units off the qualifying rows for `fixed`. */
  value: z.number().int().min(1).max(MONEY_MAX),
  valid_from: timestampInputSchema.nullable(),
  valid_until: timestampInputSchema.nullable(),
  /** null = unlimited */
  max_uses: z.number().int().min(1).max(1_000_000).nullable(),
  once_per_customer: z.boolean(),
  kinds: z.array(productKindSchema).max(PRODUCT_KINDS.length),
  plan_ids: z.array(idSchema).max(100),
  tlds: z.array(tldSchema).max(100),
  active: z.boolean(),
};
export const promoPayloadSchema = z.object({
  ...promoFields,
  valid_from: promoFields.valid_from.default(null),
  valid_until: promoFields.valid_until.default(null),
  max_uses: promoFields.max_uses.default(null),
  once_per_customer: promoFields.once_per_customer.default(false),
  kinds: promoFields.kinds.default([]),
  plan_ids: promoFields.plan_ids.default([]),
  tlds: promoFields.tlds.default([]),
  active: promoFields.active.default(true),
});
export type PromoPayload = z.infer<typeof promoPayloadSchema>;
export const promoPatchSchema = z.object(promoFields).partial();
export type PromoPatch = z.infer<typeof promoPatchSchema>;

export const promoSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  kind: promoKindSchema,
  value: z.number().int(),
  /** "10 %" or "€5.00" */
  label: z.string(),
  valid_from: z.string().nullable(),
  valid_until: z.string().nullable(),
  max_uses: z.number().int().nullable(),
  uses: z.number().int(),
  once_per_customer: z.boolean(),
  kinds: z.array(productKindSchema),
  plan_ids: z.array(z.number().int()),
  tlds: z.array(z.string()),
  active: z.boolean(),
  created_at: z.string(),
});
export type Promo = z.infer<typeof promoSchema>;
export const promoListAnswerSchema = pageOf(promoSchema);
export const promoAnswerSchema = z.object({ data: promoSchema, message: z.string().optional() });
