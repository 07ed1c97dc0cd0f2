import { z } from 'zod';
import { idSchema } from './hosting.ts';
import { COUNTRY_CODE_PATTERN, VAT_ID_PATTERN } from './user.ts';

/*
 * The ways to pay: saved payment methods (/account/payment-methods, super admins and users of
 * host_purchases tenants), the tenant's bank account (bank transfer instructions and payment QR
 * codes), admin confirmation of bank transfers (mark paid, bank statement import), the Stripe
 * webhook and invoice PDFs. Amounts are integer minor units (cents) with an ISO 4217 currency.
 * Texts named in `error` (e.g. `payments.iban_invalid`) are message keys: the server and the web's
 * `payments` area translate them.
 *
 * Routes (all under /api):
 *   super admins and users of host_purchases tenants (others 403):
 *   GET    /account/payment-methods               paymentMethodListAnswerSchema
 *   POST   /account/payment-methods               paymentMethodPayloadSchema -> paymentMethodAnswerSchema (201)
 *   PATCH  /account/payment-methods/{id}/default  paymentMethodAnswerSchema
 *   DELETE /account/payment-methods/{id}          messageAnswerSchema (the next one becomes default)
 *   POST   /account/payment-methods/card-setup    cardSetupAnswerSchema (a Stripe Checkout page in setup mode)
 *   POST   /account/payment-methods/card-setup/{sessionId}  paymentMethodAnswerSchema (201 saved; 200 already saved)
 *   the invoice's buyer:
 *   GET    /account/invoices/{id}/pdf             application/pdf
 *   host admins (their tenant) and super admins:
 *   GET    /system/invoices/{id}/pdf              application/pdf
 *   GET    /system/tenants/{id}/bank-account      tenantBankAccountAnswerSchema
 *   PUT    /system/tenants/{id}/bank-account      tenantBankAccountPayloadSchema -> tenantBankAccountAnswerSchema
 *   DELETE /system/tenants/{id}/bank-account      tenantBankAccountAnswerSchema (bank transfer off)
 *   GET    /system/tenants/{id}/seller-details    sellerDetailsAnswerSchema
 *   PUT    /system/tenants/{id}/seller-details    sellerDetailsPayloadSchema -> sellerDetailsAnswerSchema
 *   the invoice's buyer, and host admins (their tenant) and super admins:
 *   GET    /account/invoices/{id}/e-invoice?format=  and  /system/invoices/{id}/e-invoice?format=
 *                                                 application/xml (EN 16931: UBL, XRechnung UBL or CII)
 *   POST   /system/invoices/{id}/mark-paid        markPaidPayloadSchema -> markPaidAnswerSchema
 *   POST   /system/payments/bank-statement?tenant_id=  multipart `file` (CSV) -> bankStatementAnswerSchema
 *   Stripe (server to server): POST /payments/stripe/webhook
 */

/* Provider ids, payment options and payment instructions are in shop.ts (paymentProviderSchema, paymentInstructionsSchema). */

/* ---- IBAN and BIC ---- */

/** IBAN lengths by country (the SWIFT IBAN registry); a country not listed is checked by checksum only. */
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
};

/** An IBAN as stored and compared: no spaces, upper case. */
export const normaliseIban = (value: string): string => value.replace(/\s+/g, '').toUpperCase();

/** ISO 13616: country, two check digits, up to 30 letters/digits; mod 97 of the rearranged number is 1. */
export function isValidIban(value: string): boolean {
  const iban = normaliseIban(value);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const expected = IBAN_LENGTHS[iban.slice(0, 2)];
  if (expected !== undefined && iban.length !== expected) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const digits = char >= 'A' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** "CZ65 0800 0000 1920 0014 5399": how people read an IBAN. */
export const formatIban = (value: string): string => normaliseIban(value).replace(/(.{4})(?=.)/g, '$1 ');

export const ibanSchema = z.string().trim().min(1).max(42).refine(isValidIban, { error: 'payments.iban_invalid' }).transform(normaliseIban);

/** ISO 9362: bank, country, location, optional branch. Empty means none. */
export const bicSchema = z
  .string()
  .trim()
  .transform((value) => value.replace(/\s+/g, '').toUpperCase())
  .refine((value) => value === '' || /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(value), { error: 'payments.bic_invalid' })
  .transform((value) => (value === '' ? null : value));

/** Names in payment orders: EPC QR codes allow 70 characters. */
const accountNameSchema = z.string().trim().min(1).max(70);

/* ---- saved payment methods (/api/account/payment-methods) ---- */

export const PAYMENT_METHOD_KINDS = ['bank_transfer', 'card'] as const;
export const paymentMethodKindSchema = z.enum(PAYMENT_METHOD_KINDS);
export type PaymentMethodKind = z.infer<typeof paymentMethodKindSchema>;

const methodBase = {
  id: z.number().int(),
  is_default: z.boolean(),
  created_at: z.string(),
};

/** The payer's own account: where refunds go, and how their transfers are recognised on statements. */
export const bankTransferMethodSchema = z.object({
  ...methodBase,
  kind: z.literal('bank_transfer'),
  account_name: z.string(),
  /** Normalised (no spaces); show it with formatIban. */
  iban: z.string(),
  bic: z.string().nullable(),
});

/** A card saved at Stripe: only its Stripe id and what identifies it to its owner, never the number. */
export const cardMethodSchema = z.object({
  ...methodBase,
  kind: z.literal('card'),
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
});

export const paymentMethodSchema = z.discriminatedUnion('kind', [bankTransferMethodSchema, cardMethodSchema]);
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

/** GET: the user's methods (default first), and the kinds they may add here (`card` only with Stripe). */
export const paymentMethodListAnswerSchema = z.object({
  data: z.array(paymentMethodSchema),
  available_kinds: z.array(paymentMethodKindSchema),
});
export type PaymentMethodListAnswer = z.infer<typeof paymentMethodListAnswerSchema>;

export const paymentMethodAnswerSchema = z.object({ data: paymentMethodSchema, message: z.string().optional() });

/**
 * POST /api/account/payment-methods. A card is added after Stripe.js collected it: the payload is
 * its Stripe PaymentMethod id (`pm_...`); the server reads brand, last4 and expiry from Stripe.
 * The first method becomes the default; `make_default` makes a later one the default.
 */
export const paymentMethodPayloadSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('bank_transfer'),
    account_name: accountNameSchema,
    iban: ibanSchema,
    bic: bicSchema.optional(),
    make_default: z.boolean().optional(),
  }),
  z.object({
    kind: z.literal('card'),
    stripe_payment_method_id: z
      .string()
      .trim()
      .regex(/^pm_[A-Za-z0-9_]{1,200}$/, { error: 'validation.invalid' }),
    make_default: z.boolean().optional(),
  }),
]);
export type PaymentMethodPayload = z.input<typeof paymentMethodPayloadSchema>;

/**
 * Adding a card without Stripe.js: POST .../card-setup answers the URL of a Stripe-hosted Checkout
 * page in setup mode; Stripe sends the browser back to
 * `/account/payment-methods?card_setup=<session id>`, and POST .../card-setup/{sessionId} saves
 * the card (once per session, however often it is sent).
 */
export const CARD_SETUP_QUERY_PARAM = 'card_setup';
export const cardSetupAnswerSchema = z.object({ data: z.object({ url: z.string() }) });
export type CardSetupAnswer = z.infer<typeof cardSetupAnswerSchema>;
/** A Checkout Session id as Stripe writes them (`cs_test_...`, `cs_live_...`). */
export const checkoutSessionIdSchema = z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/, { error: 'validation.invalid' });
export const cardSetupParamsSchema = z.object({ sessionId: checkoutSessionIdSchema });

/* ---- the tenant's bank account (/api/system/tenants/{id}/bank-account) ---- */

/** Where customers of the tenant transfer money to; bank transfer is offered only when it is set. */
export const tenantBankAccountSchema = z.object({
  account_name: z.string(),
  iban: z.string(),
  bic: z.string().nullable(),
});
export type TenantBankAccount = z.infer<typeof tenantBankAccountSchema>;

/** GET/PUT answer; data is null when the tenant has no bank account (bank transfer is off). */
export const tenantBankAccountAnswerSchema = z.object({ data: tenantBankAccountSchema.nullable(), message: z.string().optional() });

/** PUT (super admins, or the tenant's host admins). */
export const tenantBankAccountPayloadSchema = z.object({
  account_name: accountNameSchema,
  iban: ibanSchema,
  bic: bicSchema.optional(),
});
export type TenantBankAccountPayload = z.input<typeof tenantBankAccountPayloadSchema>;

/* ---- the seller on the tenant's invoices (/api/system/tenants/{id}/seller-details) ---- */

// Printed on invoices and written into e-invoices' XML: one line each, no control characters.
const sellerLine = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((value) => !/\p{Cc}/u.test(value), { error: 'validation.invalid' });

/** The seller's legal details an EN 16931 invoice must carry (BT-27, BT-35..40, BT-31, BT-43). */
export const sellerDetailsSchema = z.object({
  legal_name: z.string(),
  street: z.string(),
  city: z.string(),
  postal_code: z.string(),
  country: z.string(),
  vat_id: z.string(),
  email: z.string(),
  phone: z.string(),
});
export type SellerDetails = z.infer<typeof sellerDetailsSchema>;

/** GET/PUT answer; data is null until the tenant's admins set the details (no e-invoice before). */
export const sellerDetailsAnswerSchema = z.object({ data: sellerDetailsSchema.nullable(), message: z.string().optional() });

/** PUT (super admins, or the tenant's host admins). */
export const sellerDetailsPayloadSchema = z.object({
  legal_name: sellerLine(1, 200),
  street: sellerLine(1, 200),
  city: sellerLine(1, 100),
  postal_code: sellerLine(1, 20),
  country: z
    .string()
    .trim()
    .transform((value) => value.toUpperCase())
    .pipe(z.string().regex(COUNTRY_CODE_PATTERN, { error: 'validation.country' })),
  vat_id: z
    .string()
    .trim()
    .transform((value) => value.replace(/[\s-]/g, '').toUpperCase())
    .pipe(z.string().refine((value) => value === '' || VAT_ID_PATTERN.test(value), { error: 'validation.vat_id' }))
    .optional(),
  email: z.union([z.literal(''), z.email({ error: 'validation.email' }).max(254)]).optional(),
  phone: z
    .string()
    .trim()
    .max(32)
    .regex(/^$|^\+?[0-9 ()./-]{6,31}$/, { error: 'validation.phone' })
    .optional(),
});
export type SellerDetailsPayload = z.input<typeof sellerDetailsPayloadSchema>;

/** The e-invoice syntaxes offered for download (the PDF carries Factur-X, EN 16931 profile). */
export const E_INVOICE_FORMATS = ['ubl', 'xrechnung-ubl', 'cii'] as const;
export const eInvoiceQuerySchema = z.object({ format: z.enum(E_INVOICE_FORMATS).default('ubl') });
export type EInvoiceFormat = (typeof E_INVOICE_FORMATS)[number];

/* ---- admin confirmation (/api/system/...) ---- */

/** POST /api/system/invoices/{id}/mark-paid: `reference` is the bank's transaction id, if known. */
export const markPaidPayloadSchema = z.object({
  reference: z.string().trim().min(1).max(100).optional(),
});

export const settlementResultSchema = z.object({
  invoice_id: z.number().int(),
  /** True when this call paid the invoice; false when it was already paid. */
  settled: z.boolean(),
  already_paid: z.boolean(),
});
export const markPaidAnswerSchema = z.object({ data: settlementResultSchema, message: z.string().optional() });

/** The CSV columns a bank statement needs (header row, any order, `,` or `;` separated). */
export const BANK_STATEMENT_COLUMNS = ['date', 'amount', 'currency', 'reference', 'counterparty'] as const;
/** Largest statement file accepted. */
export const BANK_STATEMENT_MAX_BYTES = 2 * 1024 * 1024;

/**
 * POST /api/system/payments/bank-statement (multipart, field `file`): `tenant_id` for super admins
 * (else their own tenant); host admins always import for their tenant.
 */
export const bankStatementQuerySchema = z.object({ tenant_id: idSchema.optional() });

export const BANK_STATEMENT_LINE_STATUSES = ['matched', 'already_paid', 'no_match', 'amount_mismatch', 'ignored', 'invalid'] as const;
export type BankStatementLineStatus = (typeof BANK_STATEMENT_LINE_STATUSES)[number];

export const bankStatementLineSchema = z.object({
  /** 1-based line number in the file (the header is line 1). */
  line: z.number().int(),
  date: z.string(),
  /** Minor units; null when the amount could not be read. */
  amount: z.number().int().nullable(),
  currency: z.string(),
  reference: z.string(),
  counterparty: z.string(),
  status: z.enum(BANK_STATEMENT_LINE_STATUSES),
  invoice_id: z.number().int().nullable(),
  invoice_number: z.string().nullable(),
});
export type BankStatementLine = z.infer<typeof bankStatementLineSchema>;

export const bankStatementAnswerSchema = z.object({
  data: z.object({
    lines: z.array(bankStatementLineSchema),
    counts: z.record(z.enum(BANK_STATEMENT_LINE_STATUSES), z.number().int()),
  }),
  message: z.string().optional(),
});
export type BankStatementAnswer = z.infer<typeof bankStatementAnswerSchema>;
