import type { CartAddPayload } from '@berth/contracts';
import type { Insertable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { CartItemsTable } from '../../db/schema.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import { findVisibleDomain } from '../domains/queries.ts';
import { nameHeld } from '../domains/claims.ts';
import { toStoredDomainName } from '../domains/names.ts';
import { ensureShop, findPlan, findSubscription, listTlds } from '../shop/queries.ts';
import type { UserRow } from '../users/queries.ts';
import { lineTitle, netFor, periodsFor, tldOf } from './pricing.ts';

/**
 * What one product the user asked for becomes as a cart row (not stored): the plan or the domain
 * checked against the tenant's catalogue, the name against the panel's domains, and its price. The
 * cart stores it; a "buy now" checkout orders it directly.
 */
export async function resolveItem(db: Db, user: UserRow, input: CartAddPayload, now: Date): Promise<Insertable<CartItemsTable>> {
  const settings = await ensureShop(db, user.tenant_id);
  if (!periodsFor(input.kind).includes(input.period_months)) throw fieldError('period_months', 'cart.period_invalid');
  const base = {
    tenant_id: user.tenant_id,
    user_id: user.id,
    product_type: input.kind,
    period_months: input.period_months,
    currency: settings.currency,
    created_at: now,
  };

  if (input.kind === 'hosting') {
    // A renewal extends one of the user's plans at its plan's current price, also when the plan is
    // no longer offered to new customers (as WHMCS renews a hidden product); a deleted plan cannot renew.
    const renewed = input.subscription_id === undefined ? undefined : await findSubscription(db, input.subscription_id, user.id);
    if (input.subscription_id !== undefined && !renewed) throw new HttpError(404, 'http.not_found');
    if (renewed && renewed.plan_id !== input.plan_id) throw fieldError('plan_id', 'services.renew_other_plan');
    const plan = await findPlan(db, user.tenant_id, input.plan_id);
    if (!plan || !(plan.active || renewed)) throw fieldError('plan_id', 'shop.plan_unknown');
    const net = netFor('hosting', input.period_months, plan, undefined);
    return {
      ...base,
      plan_id: plan.id,
      domain_id: null,
      domain_name: null,
      tld: null,
      subscription_id: renewed?.id ?? null,
      title: lineTitle('hosting', user.language, { plan: plan.title, renewal: renewed !== undefined }),
      price_minor: net ?? 0,
    };
  }

  const tlds = await listTlds(db, user.tenant_id, true);
  let name: string;
  let domainId: number | null = null;
  if (input.kind === 'domain_renew') {
    const domain = await findVisibleDomain(db, user, input.domain_id);
    if (!domain) throw new HttpError(404, 'http.not_found');
    name = domain.name;
    domainId = domain.id;
  } else {
    const stored = toStoredDomainName(input.name);
    if (!stored) throw fieldError('name', 'domain.invalid_name');
    name = stored;
  }
  const field = input.kind === 'domain_renew' ? 'domain_id' : 'name';
  const sold = tldOf(name, tlds);
  if (!sold) throw fieldError(field, 'shop.tld_unsupported', { tld: name.split('.').slice(1).join('.') });
  if (input.kind !== 'domain_renew') {
    if (!sold.registrable) throw fieldError('name', 'shop.not_registrable');
    if (await nameHeld(db, name, now)) throw fieldError('name', 'domain.taken');
  }
  const tld = tlds.find((t) => t.tld === sold.tld);
  const net = netFor(input.kind, input.period_months, undefined, tld);
  return {
    ...base,
    plan_id: null,
    domain_id: domainId,
    domain_name: name,
    tld: sold.tld,
    title: lineTitle(input.kind, user.language, { domain: name }),
    price_minor: net ?? 0,
  };
}
