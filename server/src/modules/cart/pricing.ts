import { DOMAIN_PERIODS, HOSTING_PERIODS, PRODUCT_KINDS, TRANSFER_PERIODS, type ProductKind } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { translate } from '../../i18n/messages.ts';
import { displayDomainName } from '../domains/names.ts';
import { findCartPromo, hasRedeemed, type PromoRow } from '../promo/queries.ts';
import { discountsFor, promoProblem, qualifies, type PromoProblem } from '../promo/rules.ts';
import { vatOf } from '../shop/money.ts';
import { languageOf } from '../shop/language.ts';
import { ensureShop, listPlans, listTlds, type HostingPlanRow, type ShopSettingsRow, type TldPriceRow } from '../shop/queries.ts';
import type { UserRow } from '../users/queries.ts';
import { listCartItems, lockCartItems, takenNames, type CartItemRow } from './queries.ts';

export const periodsFor = (kind: ProductKind): readonly number[] =>
  kind === 'hosting' ? HOSTING_PERIODS : kind === 'domain_transfer' ? TRANSFER_PERIODS : DOMAIN_PERIODS;

/** Net price of a period: hosting by the month or by whole years; domains by the year. */
export function netFor(
  kind: ProductKind,
  periodMonths: number,
  plan: HostingPlanRow | undefined,
  tld: TldPriceRow | undefined,
): number | undefined {
  if (kind === 'hosting') {
    if (!plan) return undefined;
    return periodMonths % 12 === 0 ? Number(plan.yearly_price) * (periodMonths / 12) : Number(plan.monthly_price) * periodMonths;
  }
  if (!tld) return undefined;
  const perYear = kind === 'domain_register' ? tld.register_price : kind === 'domain_renew' ? tld.renew_price : tld.transfer_price;
  return Number(perYear) * (periodMonths / 12);
}

/**
 * The TLD a stored name is sold under (the longest matching suffix, so `co.uk` beats `uk`), and
 * whether the name is registrable under it: exactly one label in front.
 */
export function tldOf(name: string, tlds: readonly Pick<TldPriceRow, 'tld'>[]): { tld: string; registrable: boolean } | undefined {
  const match = tlds.filter((t) => name.endsWith(`.${t.tld}`)).sort((a, b) => b.tld.length - a.tld.length)[0];
  if (!match) return undefined;
  const label = name.slice(0, -(match.tld.length + 1));
  return { tld: match.tld, registrable: label.length > 0 && !label.includes('.') };
}

export interface PricedLine {
  row: CartItemRow;
  kind: ProductKind;
  title: string;
  planId: number | null;
  tld: string | null;
  /** Net before discount, minor units. */
  net: number;
  discount: number;
  periods: readonly number[];
  available: boolean;
}

export interface PricedCart {
  settings: ShopSettingsRow;
  lines: PricedLine[];
  promo: PromoRow | null;
  /** Why the applied promo gives nothing now; null when it applies (or none is applied). */
  promoProblem: PromoProblem | null;
  totals: { subtotal: number; discount: number; net: number; vat: number; gross: number };
}

const isKind = (value: string): value is ProductKind => (PRODUCT_KINDS as readonly string[]).includes(value);

export function lineTitle(
  kind: ProductKind,
  language: string,
  names: { plan?: string | undefined; domain?: string | null; renewal?: boolean },
): string {
  const lang = languageOf({ language });
  if (kind === 'hosting')
    return translate(lang, names.renewal ? 'shop.line.hosting_renew' : 'shop.line.hosting', { title: names.plan ?? '' });
  return translate(lang, `shop.line.${kind}`, { name: displayDomainName(names.domain ?? '') });
}

/**
 * The user's cart priced from the tenant's current catalogue, with the applied promo's discounts
 * and the totals. `lock` (checkout) locks the rows in the caller's transaction.
 */
export async function priceCart(db: Db, user: UserRow, now: Date, options: { lock?: boolean } = {}): Promise<PricedCart> {
  const [rows, promo] = await Promise.all([
    options.lock ? lockCartItems(db, user.id) : listCartItems(db, user.id),
    findCartPromo(db, user.id),
  ]);
  return priceRows(db, user, now, rows, promo ?? null);
}

/** Rows (the cart's, or one "buy now" item) priced from the tenant's current catalogue, with a promo's discounts. */
export async function priceRows(db: Db, user: UserRow, now: Date, rows: CartItemRow[], promo: PromoRow | null): Promise<PricedCart> {
  const settings = await ensureShop(db, user.tenant_id);
  const [plans, tlds] = await Promise.all([listPlans(db, user.tenant_id, false), listTlds(db, user.tenant_id, false)]);
  const taken = await takenNames(
    db,
    rows
      .filter((row) => row.product_type === 'domain_register' || row.product_type === 'domain_transfer')
      .flatMap((row) => (row.domain_name ? [row.domain_name] : [])),
  );
  const lines = rows.map((row): PricedLine => {
    const kind = isKind(row.product_type) ? row.product_type : 'hosting';
    // A renewal keeps its plan also when the plan is no longer sold to new customers (cart/items.ts).
    const renews = row.subscription_id !== null;
    const plan = row.plan_id === null ? undefined : plans.find((p) => p.id === row.plan_id && (p.active || renews));
    const tld = row.tld === null ? undefined : tlds.find((t) => t.tld === row.tld && t.active);
    const net = isKind(row.product_type) ? netFor(kind, row.period_months, plan, tld) : undefined;
    const stillFree = !(kind === 'domain_register' || kind === 'domain_transfer') || !taken.has(row.domain_name ?? '');
    const available = net !== undefined && stillFree && (kind !== 'domain_renew' || row.domain_id !== null);
    return {
      row,
      kind,
      title:
        net === undefined ? row.title : lineTitle(kind, user.language, { plan: plan?.title, domain: row.domain_name, renewal: renews }),
      planId: row.plan_id,
      tld: row.tld,
      net: net ?? Number(row.price_minor),
      discount: 0,
      periods: periodsFor(kind),
      available,
    };
  });

  let problem: PromoProblem | null = null;
  if (promo) {
    problem = promoProblem(promo, now, user.language, promo.once_per_customer && (await hasRedeemed(db, promo.id, user.id)));
    const eligible = lines.filter((line) => line.available);
    if (!problem && !eligible.some((line) => qualifies(promo, line))) problem = { key: 'promo.no_products' };
    if (!problem) {
      const discounts = discountsFor(promo, eligible);
      eligible.forEach((line, i) => (line.discount = discounts[i] ?? 0));
    }
  }
  const subtotal = lines.reduce((sum, line) => sum + line.net, 0);
  const discount = lines.reduce((sum, line) => sum + line.discount, 0);
  const net = subtotal - discount;
  const vat = vatOf(net, settings.vat_rate_bp);
  return { settings, lines, promo, promoProblem: problem, totals: { subtotal, discount, net, vat, gross: net + vat } };
}
