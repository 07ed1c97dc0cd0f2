import type { EventSink } from '../webhooks/events.ts';
import type { CartAddPayload, CheckoutResult, PaymentProviderName } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { resolveItem } from '../cart/items.ts';
import { priceCart, priceRows, type PricedCart } from '../cart/pricing.ts';
import { emptyCart, type CartItemRow } from '../cart/queries.ts';
import { createInvoice, invoiceToPay, type InvoiceReader } from '../invoices/service.ts';
import type { InvoiceRow } from '../invoices/queries.ts';
import { setInvoiceInstructions, findInvoiceByOrder } from '../invoices/queries.ts';
import { settleInTransaction } from '../invoices/settlement.ts';
import { assertOwnPaymentMethod } from '../payments/methods.ts';
import type { PaymentProviders } from '../payments/registry.ts';
import { claimUse, insertRedemption } from '../promo/queries.ts';
import { formatMoney } from '../shop/money.ts';
import { endWithRefund } from '../shop/subscriptions.ts';
import type { RealtimeHub } from '../realtime/hub.ts';
import { findOrderByKey, insertOrder, insertOrderItems, setOrderTotals } from './queries.ts';

export interface CheckoutInput {
  payment: PaymentProviderName;
  paymentMethodId: number | null;
  idempotencyKey: string | undefined;
  /** "Buy now": this product instead of the cart; the cart is left alone. */
  item?: CartAddPayload | undefined;
  /**
   * A plan change: this active hosting plan of the user ends in the same transaction and its
   * unused days go to their credit first, which then pays `item` (a hosting plan). If the credit
   * does not cover it, nothing happens: the old plan keeps running.
   */
  replacesSubscription?: number | undefined;
  /** A renewal's (modules/billing): the invoice is due then and dunned if unpaid. */
  dueAt?: Date | undefined;
  /** Issue the invoice unpaid without asking the provider (a renewal the credit did not cover, to be paid later). */
  leaveUnpaid?: boolean | undefined;
  /** Work that must commit with the order (a renewal's notice and mail): runs last in its transaction. */
  inTransaction?: ((trx: Db, outcome: { invoice: InvoiceRow; paid: boolean; orderId: number }) => Promise<void>) | undefined;
}

/**
 * Checkout: ONE transaction claims the idempotency key (the order row), takes the locked cart,
 * claims the promo use, issues the gap-free invoice and asks the payment provider; a provider that
 * takes the money at once (credit) settles the invoice and delivers the order in the same
 * transaction. Any failure rolls all of it back, the promo claim included.
 */
export class CheckoutService {
  private readonly deps: {
    db: Db;
    clock: Clock;
    audit: AuditService;
    realtime: RealtimeHub;
    providers: PaymentProviders;
    invoices: InvoiceReader;
    secrets: SecretBox;
    events?: EventSink;
  };

  constructor(deps: CheckoutService['deps']) {
    this.deps = deps;
  }

  /**
   * Upgrade or downgrade in one step: `subscriptionId` ends now, its unused days go to the credit,
   * and the credit pays `plan` (a "buy now" checkout), all in one transaction.
   */
  async changePlan(
    actor: Actor,
    subscriptionId: number,
    plan: { plan_id: number; period_months: number; idempotencyKey: string },
    language: string,
  ): Promise<{ result: CheckoutResult; created: boolean; replaced?: { title: string; formatted: string } }> {
    const done = await this.checkout(
      actor,
      {
        payment: 'credit',
        paymentMethodId: null,
        idempotencyKey: plan.idempotencyKey,
        item: { kind: 'hosting', plan_id: plan.plan_id, period_months: plan.period_months },
        replacesSubscription: subscriptionId,
      },
      language,
    );
    const { replaced } = done;
    return {
      result: done.result,
      created: done.created,
      ...(replaced ? { replaced: { title: replaced.title, formatted: formatMoney(replaced.refunded, replaced.currency, language) } } : {}),
    };
  }

  async checkout(
    actor: Actor,
    input: CheckoutInput,
    language: string,
  ): Promise<{ result: CheckoutResult; created: boolean; replaced?: Awaited<ReturnType<typeof endWithRefund>> }> {
    const { db, clock, providers } = this.deps;
    const user = actor.user;
    const key = input.idempotencyKey;
    if (!key) throw fieldError('idempotency_key', 'validation.required');
    const earlier = await this.earlier(user.id, key, language, actor);
    if (earlier) return { result: earlier, created: false };

    const provider = providers.get(input.payment);
    if (!provider || !(await provider.enabled(user.tenant_id))) throw fieldError('payment', 'checkout.payment_unavailable');
    await assertOwnPaymentMethod(db, user.id, input.paymentMethodId);

    let outcome: { orderId: number; invoiceId: number; paid: boolean; number: string; gross: number; promo: string | null };
    let replaced: Awaited<ReturnType<typeof endWithRefund>> | undefined;
    try {
      outcome = await db.transaction().execute(async (trx) => {
        const now = clock.now();
        const cart = input.item ? await this.itemAsCart(trx, actor, input.item, now) : await priceCart(trx, user, now, { lock: true });
        const order = await insertOrder(trx, {
          tenant_id: user.tenant_id,
          user_id: user.id,
          status: 'pending',
          currency: cart.settings.currency,
          vat_rate_bp: cart.settings.vat_rate_bp,
          subtotal: 0,
          discount: 0,
          net: 0,
          vat: 0,
          gross: 0,
          promo_id: null,
          promo_code: null,
          idempotency_key: key,
          created_at: now,
          paid_at: null,
        });
        if (!cart.lines.length) throw new HttpError(422, 'cart.empty', { fields: { cart: [{ key: 'cart.empty' }] } });
        if (input.replacesSubscription !== undefined) {
          if (input.item?.kind !== 'hosting' || input.payment !== 'credit') throw fieldError('plan_id', 'validation.invalid');
          const ended = await endWithRefund(trx, user, input.replacesSubscription, now);
          if (ended.planId === input.item.plan_id) throw fieldError('plan_id', 'services.same_plan');
          replaced = ended;
        }
        if (cart.lines.some((line) => !line.available))
          throw new HttpError(422, 'cart.unavailable', { fields: { cart: [{ key: 'cart.unavailable' }] } });

        const promo = cart.promo;
        if (promo) {
          if (cart.promoProblem) throw fieldError('code', cart.promoProblem.key, cart.promoProblem.params);
          if (!(await claimUse(trx, promo.id, now))) throw fieldError('code', 'promo.used_up');
          const redeemed = await insertRedemption(trx, {
            promo_id: promo.id,
            user_id: user.id,
            order_id: order.id,
            once_key: promo.once_per_customer ? user.id : null,
            created_at: now,
          });
          if (!redeemed) throw fieldError('code', 'promo.already_used');
        }
        await setOrderTotals(trx, order.id, { ...cart.totals, promo_id: promo?.id ?? null, promo_code: promo?.code ?? null });
        await insertOrderItems(
          trx,
          cart.lines.map((line) => ({
            order_id: order.id,
            kind: line.kind,
            title: line.title,
            plan_id: line.row.plan_id,
            domain_name: line.row.domain_name,
            domain_id: line.row.domain_id,
            subscription_id: line.row.subscription_id,
            period_months: line.row.period_months,
            net: line.net,
            discount: line.discount,
            provisioned_at: null,
          })),
        );
        const invoice = await createInvoice(
          trx,
          {
            tenantId: user.tenant_id,
            userId: user.id,
            kind: 'order',
            orderId: order.id,
            currency: cart.settings.currency,
            vatRateBp: cart.settings.vat_rate_bp,
            lines: cart.lines.map((line) => ({
              kind: line.kind,
              title: line.title,
              period_months: line.row.period_months,
              net: line.net,
              discount: line.discount,
            })),
            totals: cart.totals,
            promoCode: promo?.code ?? null,
            provider: provider.id,
            now,
            dueAt: input.dueAt,
          },
          this.deps.events,
        );
        const start = input.leaveUnpaid
          ? ({ status: 'pending', instructions: null } as const)
          : await provider.start(trx, invoiceToPay(invoice), { paymentMethodId: input.paymentMethodId });
        let paid = false;
        if (start.status === 'paid') {
          const settled = await settleInTransaction(
            trx,
            {
              tenantId: invoice.tenant_id,
              invoiceId: invoice.id,
              provider: provider.id,
              reference: start.reference,
              amount: Number(invoice.gross),
              actorId: user.id,
            },
            now,
            this.deps.secrets,
            this.deps.events,
          );
          paid = settled.settled;
        } else if (start.instructions) {
          await setInvoiceInstructions(trx, invoice.id, start.instructions);
        }
        if (!input.item) await emptyCart(trx, user.id);
        await input.inTransaction?.(trx, { invoice, paid, orderId: order.id });
        return {
          orderId: order.id,
          invoiceId: invoice.id,
          paid,
          number: invoice.number,
          gross: cart.totals.gross,
          promo: promo?.code ?? null,
        };
      });
    } catch (error) {
      // The same key at the same time: the other request's order won the unique index.
      if (isUniqueViolation(error, 'orders_user_idempotency')) {
        const again = await this.earlier(user.id, key, language, actor);
        if (again) return { result: again, created: false };
      }
      throw error;
    }
    if (!input.item) this.deps.realtime.cartUpdated(user.id);
    if (replaced && input.replacesSubscription !== undefined) {
      await this.deps.audit.recordAction(
        actor,
        'subscription.cancelled',
        user.tenant_id,
        { type: 'user', id: user.id },
        { title: replaced.title, amount: replaced.refunded, currency: replaced.currency, replaced_by_order: outcome.orderId },
      );
    }
    await this.deps.audit.recordAction(
      actor,
      'order.created',
      user.tenant_id,
      { type: 'order', id: outcome.orderId },
      {
        invoice: outcome.number,
        payment: input.payment,
        gross: outcome.gross,
        promo: outcome.promo,
        paid: outcome.paid,
      },
    );
    if (outcome.paid) {
      await this.deps.audit.recordAction(
        actor,
        'invoice.paid',
        user.tenant_id,
        { type: 'invoice', id: outcome.invoiceId },
        { number: outcome.number, provider: input.payment },
      );
    }
    const invoice = await this.deps.invoices.getInvoiceForUser(user, outcome.invoiceId, language);
    return {
      result: { order_id: outcome.orderId, status: outcome.paid ? 'paid' : 'pending', invoice },
      created: true,
      ...(replaced ? { replaced } : {}),
    };
  }

  /** One product priced like a cart row of its own (never stored in the cart). */
  private async itemAsCart(trx: Db, actor: Actor, item: CartAddPayload, now: Date): Promise<PricedCart> {
    const values = await resolveItem(trx, actor.user, item, now);
    const row: CartItemRow = {
      id: 0,
      plan_id: null,
      domain_id: null,
      domain_name: null,
      tld: null,
      subscription_id: null,
      period_months: 12,
      currency: '',
      ...values,
      created_at: now,
    };
    return priceRows(trx, actor.user, now, [row], null);
  }

  /** The order an earlier request with this key made, as the checkout answered it. */
  private async earlier(userId: number, key: string, language: string, actor: Actor): Promise<CheckoutResult | undefined> {
    const order = await findOrderByKey(this.deps.db, userId, key);
    if (!order) return undefined;
    const invoice = await findInvoiceByOrder(this.deps.db, order.id);
    if (!invoice) return undefined;
    return {
      order_id: order.id,
      status: order.status,
      invoice: await this.deps.invoices.getInvoiceForUser(actor.user, invoice.id, language),
    };
  }
}
