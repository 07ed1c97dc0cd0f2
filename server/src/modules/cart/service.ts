import { PRODUCT_KINDS, type CartAddPayload, type ProductKind, type ShopCart } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { findPromoByCode, hasRedeemed, setCartPromo, clearCartPromo } from '../promo/queries.ts';
import { promoProblem, qualifies } from '../promo/rules.ts';
import type { RealtimeHub } from '../realtime/hub.ts';
import { findPlan, findTldByName } from '../shop/queries.ts';
import type { UserRow } from '../users/queries.ts';
import { presentCart } from './present.ts';
import { resolveItem } from './items.ts';
import { netFor, periodsFor, priceCart } from './pricing.ts';
import { countCartItems, deleteCartItem, findCartItem, insertCartItem, updateCartItemPeriod } from './queries.ts';

/** More rows than anyone buys at once; keeps a cart (and its checkout) bounded. */
export const CART_MAX_ROWS = 50;

/**
 * The server-side cart: one per user, the same on every device and after logout. Every change
 * answers the whole cart and tells the user's other tabs through the realtime cart channel.
 */
export class CartService {
  private readonly deps: { db: Db; clock: Clock; audit: AuditService; realtime: RealtimeHub };

  constructor(deps: CartService['deps']) {
    this.deps = deps;
  }

  async view(user: UserRow, language: string): Promise<ShopCart> {
    return presentCart(await priceCart(this.deps.db, user, this.deps.clock.now()), language);
  }

  async add(actor: Actor, input: CartAddPayload, language: string): Promise<ShopCart> {
    const { db } = this.deps;
    const user = actor.user;
    if ((await countCartItems(db, user.id)) >= CART_MAX_ROWS) throw new HttpError(422, 'cart.full');
    const values = await resolveItem(db, user, input, this.deps.clock.now());
    let row;
    try {
      row = await insertCartItem(db, values);
    } catch (error) {
      if (isUniqueViolation(error, 'cart_items_user_domain'))
        throw fieldError(input.kind === 'domain_renew' ? 'domain_id' : 'name', 'cart.duplicate');
      throw error;
    }
    await this.changed(actor, 'cart.item_added', row.id, {
      kind: input.kind,
      period_months: input.period_months,
      ...(values.domain_name ? { domain: values.domain_name } : {}),
      ...(values.plan_id ? { plan_id: values.plan_id } : {}),
    });
    return this.view(user, language);
  }

  async changePeriod(actor: Actor, id: number, periodMonths: number, language: string): Promise<ShopCart> {
    const { db } = this.deps;
    const user = actor.user;
    const row = await findCartItem(db, user.id, id);
    if (!row) throw new HttpError(404, 'http.not_found');
    const kind = row.product_type as ProductKind;
    if (!(PRODUCT_KINDS as readonly string[]).includes(kind) || !periodsFor(kind).includes(periodMonths))
      throw fieldError('period_months', 'cart.period_invalid');
    const plan = row.plan_id === null ? undefined : await findPlan(db, user.tenant_id, row.plan_id);
    const tld = row.tld === null ? undefined : await findTldByName(db, user.tenant_id, row.tld);
    const net = netFor(kind, periodMonths, plan, tld);
    await updateCartItemPeriod(db, user.id, row.id, periodMonths, net ?? Number(row.price_minor));
    await this.changed(actor, 'cart.item_changed', row.id, { period_months: periodMonths });
    return this.view(user, language);
  }

  async remove(actor: Actor, id: number, language: string): Promise<ShopCart> {
    const deleted = await deleteCartItem(this.deps.db, actor.user.id, id);
    if (Number(deleted.numDeletedRows) === 0) throw new HttpError(404, 'http.not_found');
    await this.changed(actor, 'cart.item_removed', id);
    return this.view(actor.user, language);
  }

  /** Applies a code of the user's tenant: 422 on `code` with the reason it cannot be used. */
  async applyPromo(actor: Actor, code: string, language: string): Promise<ShopCart> {
    const { db, clock } = this.deps;
    const user = actor.user;
    const promo = await findPromoByCode(db, user.tenant_id, code);
    if (!promo) throw fieldError('code', 'promo.unknown');
    const problem = promoProblem(promo, clock.now(), user.language, promo.once_per_customer && (await hasRedeemed(db, promo.id, user.id)));
    if (problem) throw fieldError('code', problem.key, problem.params);
    const cart = await priceCart(db, user, clock.now());
    if (!cart.lines.some((line) => line.available && qualifies(promo, line))) throw fieldError('code', 'promo.no_products');
    await setCartPromo(db, user.id, promo.id, clock.now());
    await this.changed(actor, 'cart.promo_applied', null, { code: promo.code });
    return this.view(user, language);
  }

  async removePromo(actor: Actor, language: string): Promise<ShopCart> {
    const deleted = await clearCartPromo(this.deps.db, actor.user.id);
    if (Number(deleted.numDeletedRows) > 0) await this.changed(actor, 'cart.promo_removed', null);
    return this.view(actor.user, language);
  }

  private async changed(
    actor: Actor,
    action: 'cart.item_added' | 'cart.item_changed' | 'cart.item_removed' | 'cart.promo_applied' | 'cart.promo_removed',
    itemId: number | null,
    data?: Record<string, string | number>,
  ): Promise<void> {
    this.deps.realtime.cartUpdated(actor.user.id);
    await this.deps.audit.recordAction(
      actor,
      action,
      actor.user.tenant_id,
      itemId === null ? { type: 'user', id: actor.user.id } : { type: 'cart_item', id: itemId },
      data,
    );
  }
}
