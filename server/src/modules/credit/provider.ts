import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { Clock } from '../../lib/clock.ts';
import type { InvoiceToPay, PaymentProvider, PaymentStart } from '../payments/provider.ts';
import { formatMoney } from '../shop/money.ts';
import { languageOf } from '../shop/language.ts';
import { findUserById } from '../users/queries.ts';
import { post } from './ledger.ts';

/** The reference a credit payment of an invoice is recorded under (one per invoice). */
export const creditPaymentReference = (invoiceId: number): string => `credit:invoice:${invoiceId}`;

/**
 * Paying from the credit balance: the buyer's ledger is debited inside the checkout transaction
 * (the account row locked), so the invoice is paid at once; short of credit the checkout fails
 * with 422 on `payment` and rolls back.
 */
export class CreditProvider implements PaymentProvider {
  readonly id = 'credit' as const;
  private readonly clock: Clock;

  constructor(clock: Clock) {
    this.clock = clock;
  }

  async enabled(): Promise<boolean> {
    return true;
  }

  async start(trx: Db, invoice: InvoiceToPay): Promise<PaymentStart> {
    // Topping up credit with credit would move money in a circle.
    if (invoice.kind === 'credit')
      throw new HttpError(422, 'checkout.payment_unavailable', { fields: { payment: [{ key: 'checkout.payment_unavailable' }] } });
    const buyer = await findUserById(trx, invoice.user_id);
    const language = languageOf(buyer);
    const result = await post(trx, {
      tenantId: invoice.tenant_id,
      userId: invoice.user_id,
      amount: -invoice.total,
      currency: invoice.currency,
      type: 'purchase',
      description: translate(language, 'credit.entry.purchase', { number: invoice.number }),
      reference: `purchase:invoice:${invoice.id}`,
      invoiceId: invoice.id,
      actorId: invoice.user_id,
      now: this.clock.now(),
    });
    if (result.status === 'insufficient') {
      const params = {
        balance: formatMoney(result.balance, invoice.currency, language),
        amount: formatMoney(invoice.total, invoice.currency, language),
      };
      throw new HttpError(422, 'credit.insufficient', { params, fields: { payment: [{ key: 'credit.insufficient', params }] } });
    }
    return { status: 'paid', reference: creditPaymentReference(invoice.id) };
  }
}
