import type { PaymentInstructionsView, PaymentProviderName } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';

/**
 * The seam between the money core (orders, invoices, credit ledger) and the ways to pay. Checkout
 * and credit top-up create an invoice, then hand it to the provider the buyer picked; a provider
 * either takes the money inside the same transaction (credit balance) or answers how to pay and
 * settles the invoice later through `InvoiceSettlement` (bank transfer, card gateways).
 */
/** What a provider needs to know of the invoice it is asked to collect. Amounts in minor units. */
export interface InvoiceToPay {
  id: number;
  tenant_id: number;
  user_id: number;
  number: string;
  currency: string;
  /** Gross amount (VAT included) to collect. */
  total: number;
  /** The reference the payer quotes (bank transfer) or the gateway carries; unique per tenant. */
  payment_reference: string;
  /** 'order' pays a shop order; 'credit' tops up the payer's credit balance. */
  kind: 'order' | 'credit';
}

export type PaymentStart =
  /** The money was taken inside the caller's transaction; the invoice is paid. */
  | { status: 'paid'; reference: string }
  /** The invoice stays unpaid until the provider confirms it (InvoiceSettlement). */
  | { status: 'pending'; instructions: PaymentInstructionsView };

export interface PaymentProvider {
  readonly id: PaymentProviderName;
  /** Whether this provider can be offered for the tenant (keys configured, bank account set...). */
  enabled(tenantId: number): Promise<boolean>;
  /**
   * Runs inside the checkout or top-up transaction `trx`, after the invoice row exists. Throwing
   * rolls the whole checkout back (promo claim included).
   */
  start(trx: Db, invoice: InvoiceToPay, options: { paymentMethodId: number | null }): Promise<PaymentStart>;
}

/**
 * Marks an invoice paid once, whoever confirms it (admin, bank statement import, gateway webhook):
 * records the payment under its unique (provider, reference), then provisions the order or credits
 * the ledger, all in one transaction. A repeated confirmation with the same reference is a no-op.
 * Implemented by the invoices module.
 */
export interface InvoiceSettlement {
  settle(input: {
    tenantId: number;
    invoiceId: number;
    provider: PaymentProviderName;
    reference: string;
    amount: number;
    actorId: number | null;
  }): Promise<{ settled: boolean; alreadyPaid: boolean }>;
}
