import type { PaymentMethod, PaymentMethodKind } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { publicBaseUrl } from '../tenants/links.ts';
import { findTenantById } from '../tenants/queries.ts';
import { iso } from '../tenants/scope.ts';
import type { UserRow } from '../users/queries.ts';
import {
  deletePaymentMethod,
  findPaymentMethod,
  findStripeCustomer,
  findStripeCustomerOwner,
  insertStripeCustomer,
  findPaymentMethodByStripeId,
  findShopCurrency,
  insertPaymentMethod,
  listPaymentMethods,
  lockPaymentMethods,
  setDefaultPaymentMethod,
  type PaymentMethodRow,
} from './queries.ts';
import type { StripeGateway } from './stripe-gateway.ts';

export type PaymentMethodInput =
  | { kind: 'bank_transfer'; account_name: string; iban: string; bic?: string | null | undefined; make_default?: boolean | undefined }
  | { kind: 'card'; stripe_payment_method_id: string; make_default?: boolean | undefined };

/** Where the browser comes back from Stripe's card setup page (`{CHECKOUT_SESSION_ID}` is filled in by Stripe). */
export const cardSetupReturnUrls = (baseUrl: string) => ({
  successUrl: `${baseUrl}/account/payment-methods?card_setup={CHECKOUT_SESSION_ID}`,
  cancelUrl: `${baseUrl}/account/payment-methods`,
});

export function presentPaymentMethod(row: PaymentMethodRow): PaymentMethod {
  const base = { id: row.id, is_default: row.is_default, created_at: iso(row.created_at) };
  if (row.kind === 'card') {
    return {
      ...base,
      kind: 'card',
      brand: row.card_brand ?? '',
      last4: row.card_last4 ?? '',
      exp_month: row.card_exp_month ?? 0,
      exp_year: row.card_exp_year ?? 0,
    };
  }
  return { ...base, kind: 'bank_transfer', account_name: row.account_name ?? '', iban: row.iban ?? '', bic: row.bic };
}

/**
 * A saved way to pay named at checkout or top-up must be the buyer's own: another user's id is
 * refused on its field rather than silently ignored.
 */
export async function assertOwnPaymentMethod(db: Db, userId: number, id: number | null | undefined): Promise<void> {
  if (id === null || id === undefined) return;
  if (!(await findPaymentMethod(db, userId, id))) throw fieldError('payment_method_id', 'payments.method_not_found');
}

/**
 * A user's saved ways to pay (docs/product.md §6: super admins, or users of host_purchases tenants).
 * Exactly one is the default while any exist: every change locks the user's rows first.
 */
export class PaymentMethods {
  private readonly deps: { db: Db; clock: Clock; audit: AuditService; stripe: StripeGateway | null; fallbackUrl: string };

  constructor(deps: PaymentMethods['deps']) {
    this.deps = deps;
  }

  /** Kinds this user may add: a card only when Stripe is configured. */
  availableKinds(): PaymentMethodKind[] {
    return this.deps.stripe ? ['bank_transfer', 'card'] : ['bank_transfer'];
  }

  async list(user: UserRow): Promise<PaymentMethod[]> {
    return (await listPaymentMethods(this.deps.db, user.id)).map(presentPaymentMethod);
  }

  async add(actor: Actor, input: PaymentMethodInput): Promise<PaymentMethod> {
    const user = actor.user;
    const details = await this.details(user, input);
    const row = await this.deps.db
      .transaction()
      .execute(async (trx) => {
        const existing = await lockPaymentMethods(trx, user.id);
        const makeDefault = existing.length === 0 || input.make_default === true;
        const inserted = await insertPaymentMethod(trx, {
          ...details,
          tenant_id: user.tenant_id,
          user_id: user.id,
          is_default: false,
          created_at: this.deps.clock.now(),
        });
        if (makeDefault) await setDefaultPaymentMethod(trx, user.id, inserted.id);
        return { ...inserted, is_default: makeDefault };
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error, 'payment_methods_iban')) throw fieldError('iban', 'payments.method_exists');
        if (isUniqueViolation(error, 'payment_methods_stripe')) throw fieldError('stripe_payment_method_id', 'payments.method_exists');
        throw error;
      });
    await this.deps.audit.recordAction(
      actor,
      'payment_method.added',
      user.tenant_id,
      { type: 'payment_method', id: row.id },
      {
        kind: row.kind,
        // Enough to recognise it in the log, never the whole account or card.
        hint: row.kind === 'card' ? `${row.card_brand} ${row.card_last4}` : `…${(row.iban ?? '').slice(-4)}`,
        default: row.is_default,
      },
    );
    return presentPaymentMethod(row);
  }

  /**
   * Opens a Stripe Checkout page in setup mode where the user enters a card; Stripe sends the
   * browser back to `origin` (the panel's address the request came to; else the tenant's public
   * URL) with the session id, and completeCardSetup saves the card.
   */
  async startCardSetup(actor: Actor, origin: string | null): Promise<{ url: string }> {
    const user = actor.user;
    const stripe = this.deps.stripe;
    if (!stripe) throw fieldError('kind', 'payments.card_unavailable');
    const [currency, tenant] = await Promise.all([
      findShopCurrency(this.deps.db, user.tenant_id),
      origin ? undefined : findTenantById(this.deps.db, user.tenant_id),
    ]);
    const baseUrl = origin ? origin.replace(/\/+$/, '') : publicBaseUrl(tenant, this.deps.fallbackUrl);
    const session = await this.customerOf(user, stripe)
      .then((customerId) =>
        stripe.createCardSetupSession({ userId: user.id, tenantId: user.tenant_id, customerId, currency, ...cardSetupReturnUrls(baseUrl) }),
      )
      .catch(() => {
        throw new HttpError(503, 'payments.gateway_unavailable');
      });
    return { url: session.url };
  }

  /** The user's Stripe Customer, made at Stripe the first time it is needed. */
  private async customerOf(user: UserRow, stripe: StripeGateway): Promise<string> {
    const known = await findStripeCustomer(this.deps.db, user.id);
    if (known) return known.customer_id;
    const created = await stripe.createCustomer({ userId: user.id, tenantId: user.tenant_id, email: user.email });
    await insertStripeCustomer(this.deps.db, user.id, created);
    return (await findStripeCustomer(this.deps.db, user.id))?.customer_id ?? created;
  }

  /**
   * Saves the card of a finished setup session (the browser's return from Stripe). Only the user
   * who opened the session may; the same session saves one method however often it is sent.
   */
  async completeCardSetup(actor: Actor, sessionId: string): Promise<{ method: PaymentMethod; created: boolean }> {
    const user = actor.user;
    const stripe = this.deps.stripe;
    if (!stripe) throw fieldError('kind', 'payments.card_unavailable');
    const session = await stripe.retrieveCardSetupSession(sessionId).catch(() => {
      throw new HttpError(503, 'payments.gateway_unavailable');
    });
    // Someone else's session is answered like one that does not exist.
    if (!session || session.userId !== String(user.id) || session.tenantId !== String(user.tenant_id))
      throw new HttpError(404, 'http.not_found');
    if (!session.complete || !session.paymentMethodId) throw fieldError('session_id', 'payments.card_setup_incomplete');
    const paymentMethodId = session.paymentMethodId;
    const saved = async () => {
      const row = await findPaymentMethodByStripeId(this.deps.db, user.id, paymentMethodId);
      return row ? { method: presentPaymentMethod(row), created: false } : undefined;
    };
    const existing = await saved();
    if (existing) return existing;
    try {
      return { method: await this.add(actor, { kind: 'card', stripe_payment_method_id: paymentMethodId }), created: true };
    } catch (error) {
      // The same return sent twice at once: the other request saved it.
      const raced = await saved();
      if (raced) return raced;
      throw error;
    }
  }

  async makeDefault(actor: Actor, id: number): Promise<PaymentMethod> {
    const user = actor.user;
    const row = await this.deps.db.transaction().execute(async (trx) => {
      await lockPaymentMethods(trx, user.id);
      const found = await findPaymentMethod(trx, user.id, id);
      if (!found) throw new HttpError(404, 'http.not_found');
      await setDefaultPaymentMethod(trx, user.id, id);
      return { ...found, is_default: true };
    });
    await this.deps.audit.recordAction(
      actor,
      'payment_method.default_set',
      user.tenant_id,
      { type: 'payment_method', id: row.id },
      { kind: row.kind },
    );
    return presentPaymentMethod(row);
  }

  /** Removes a method; when it was the default, the oldest remaining one becomes the default. */
  async remove(actor: Actor, id: number): Promise<void> {
    const user = actor.user;
    const removed = await this.deps.db.transaction().execute(async (trx) => {
      const locked = await lockPaymentMethods(trx, user.id);
      const found = await findPaymentMethod(trx, user.id, id);
      if (!found) throw new HttpError(404, 'http.not_found');
      await deletePaymentMethod(trx, user.id, id);
      const next = found.is_default ? locked.filter((m) => m.id !== id).sort((a, b) => a.id - b.id)[0] : undefined;
      if (next) await setDefaultPaymentMethod(trx, user.id, next.id);
      return { row: found, nextDefault: next?.id ?? null };
    });
    await this.deps.audit.recordAction(
      actor,
      'payment_method.removed',
      user.tenant_id,
      { type: 'payment_method', id },
      {
        kind: removed.row.kind,
        next_default: removed.nextDefault,
      },
    );
  }

  private async details(user: UserRow, input: PaymentMethodInput) {
    const empty = {
      account_name: null,
      iban: null,
      bic: null,
      stripe_payment_method_id: null,
      card_brand: null,
      card_last4: null,
      card_exp_month: null,
      card_exp_year: null,
      stripe_customer_id: null,
    };
    if (input.kind === 'bank_transfer') {
      return { ...empty, kind: 'bank_transfer' as const, account_name: input.account_name, iban: input.iban, bic: input.bic ?? null };
    }
    const stripe = this.deps.stripe;
    if (!stripe) throw fieldError('kind', 'payments.card_unavailable');
    // Brand, last4 and expiry come from Stripe, never from the browser.
    const card = await stripe.retrieveCard(input.stripe_payment_method_id).catch(() => {
      throw new HttpError(503, 'payments.gateway_unavailable');
    });
    if (!card) throw fieldError('stripe_payment_method_id', 'payments.card_invalid');
    // A card is charged later (renewals) through the user's Customer: one attached to another
    // user's is not theirs; one attached to none is attached to theirs.
    let customerId = card.customerId;
    if (customerId) {
      const owner = await findStripeCustomerOwner(this.deps.db, customerId);
      if (owner && owner.user_id !== user.id) throw fieldError('stripe_payment_method_id', 'payments.card_invalid');
      if (!owner) await insertStripeCustomer(this.deps.db, user.id, customerId);
      const mine = await findStripeCustomer(this.deps.db, user.id);
      if (mine?.customer_id !== customerId) throw fieldError('stripe_payment_method_id', 'payments.card_invalid');
    } else {
      customerId = await this.customerOf(user, stripe)
        .then(async (id) => {
          await stripe.attachCard(input.stripe_payment_method_id, id);
          return id;
        })
        .catch(() => {
          throw new HttpError(503, 'payments.gateway_unavailable');
        });
    }
    return {
      ...empty,
      kind: 'card' as const,
      stripe_payment_method_id: input.stripe_payment_method_id,
      card_brand: card.brand,
      card_last4: card.last4,
      card_exp_month: card.exp_month,
      card_exp_year: card.exp_year,
      stripe_customer_id: customerId,
    };
  }
}
