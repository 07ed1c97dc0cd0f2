import type { ShopCart } from '@berth/contracts';
import { translate } from '../../i18n/messages.ts';
import { displayDomainName } from '../domains/names.ts';
import { promoLabel } from '../promo/rules.ts';
import { bpToPercent, formatMoney, money, price, vatOf } from '../shop/money.ts';
import { languageOf } from '../shop/language.ts';
import type { PricedCart } from './pricing.ts';

export function presentCart(cart: PricedCart, language: string): ShopCart {
  const { currency, vat_rate_bp: bp } = cart.settings;
  const m = (amount: number) => money(amount, currency, language);
  return {
    rows: cart.lines.map((line) => {
      const due = line.net - line.discount;
      return {
        id: line.row.id,
        title: line.title,
        // What the shell's cart menu shows: the row's price with VAT, after the promo.
        price_formatted: formatMoney(due + vatOf(due, bp), currency, language),
        kind: line.kind,
        plan_id: line.row.plan_id,
        domain_name: line.row.domain_name,
        domain_text: line.row.domain_name ? displayDomainName(line.row.domain_name) : null,
        domain_id: line.row.domain_id,
        period_months: line.row.period_months,
        periods: [...line.periods],
        price: price(line.net, bp, currency, language),
        discount: m(line.discount),
        available: line.available,
      };
    }),
    promo: cart.promo
      ? {
          code: cart.promo.code,
          label: promoLabel(cart.promo, currency, language),
          problem: cart.promoProblem ? translate(languageOf({ language }), cart.promoProblem.key, cart.promoProblem.params) : null,
        }
      : null,
    totals: {
      subtotal: m(cart.totals.subtotal),
      discount: m(cart.totals.discount),
      net: m(cart.totals.net),
      vat: m(cart.totals.vat),
      gross: m(cart.totals.gross),
    },
    currency,
    vat_rate: bpToPercent(bp),
  };
}
