import type {
  PlanUsage,
  Catalogue,
  DomainCheck,
  HostingPlan,
  HostingPlanPayload,
  ShopSettings,
  ShopSettingsPayload,
  TldPrice,
  TldPricePayload,
} from '@berth/contracts';
import type { hostingPlanPatchSchema, tldPricePatchSchema } from '@berth/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { tldOf } from '../cart/pricing.ts';
import { displayDomainName, toStoredDomainName } from '../domains/names.ts';
import { nameHeld } from '../domains/claims.ts';
import type { PaymentProviders } from '../payments/registry.ts';
import { assertAdmin, iso } from '../tenants/scope.ts';
import type { UserRow } from '../users/queries.ts';
import { bpToPercent, formatMoney, percentToBp, price } from './money.ts';

import { planAllowance } from './plan-limits.ts';
import { endWithRefund } from './subscriptions.ts';
import { languageOf } from './language.ts';
import { translate } from '../../i18n/messages.ts';
import { formatDate } from '../expiry/service.ts';
import { changedFields } from '../audit/changes.ts';
import {
  findPlan,
  findTld,
  tenantHasMoney,
  deletePlan,
  deleteTld,
  ensureShop,
  insertPlan,
  insertTld,
  listPlans,
  listSubscriptions,
  planUsage,
  setSubscriptionAutoRenew,
  unpaidPlanRenewals,
  listTlds,
  updatePlan,
  updateShopSettings,
  updateTld,
  type HostingPlanRow,
  type ShopSettingsRow,
  type TldPriceRow,
} from './queries.ts';

const presentPlan = (row: HostingPlanRow, settings: ShopSettingsRow, language: string): HostingPlan => ({
  id: row.id,
  title: row.title,
  description: row.description,
  monthly: price(Number(row.monthly_price), settings.vat_rate_bp, settings.currency, language),
  yearly: price(Number(row.yearly_price), settings.vat_rate_bp, settings.currency, language),
  active: row.active,
  max_domains: row.max_domains,
  max_mailboxes: row.max_mailboxes,
  disk_gb: row.disk_gb,
  php_workers: row.php_workers,
  php_memory_mb: row.php_memory_mb,
  mail_per_hour: row.mail_per_hour,
});

const presentTld = (row: TldPriceRow, settings: ShopSettingsRow, language: string): TldPrice => ({
  id: row.id,
  tld: row.tld,
  register: price(Number(row.register_price), settings.vat_rate_bp, settings.currency, language),
  renew: price(Number(row.renew_price), settings.vat_rate_bp, settings.currency, language),
  transfer: price(Number(row.transfer_price), settings.vat_rate_bp, settings.currency, language),
  active: row.active,
});

const presentSettings = (row: ShopSettingsRow): ShopSettings => ({
  currency: row.currency as ShopSettings['currency'],
  vat_rate: bpToPercent(row.vat_rate_bp),
  commission_rate: bpToPercent(row.commission_rate_bp),
  top_up_min: Number(row.top_up_min),
  top_up_max: Number(row.top_up_max),
  renew_days_before: row.renew_days_before,
  grace_days: row.grace_days,
});

/** What a tenant sells: the customers' view of the catalogue and the admins' price list. */
export class ShopCatalogue {
  private readonly deps: { db: Db; clock: Clock; audit: AuditService; providers: PaymentProviders };

  constructor(deps: ShopCatalogue['deps']) {
    this.deps = deps;
  }

  async catalogue(user: UserRow, language: string): Promise<Catalogue> {
    const { db } = this.deps;
    const settings = await ensureShop(db, user.tenant_id);
    const [plans, tlds] = await Promise.all([listPlans(db, user.tenant_id, true), listTlds(db, user.tenant_id, true)]);
    return {
      currency: settings.currency,
      vat_rate: bpToPercent(settings.vat_rate_bp),
      plans: plans.map((row) => presentPlan(row, settings, language)),
      tlds: tlds.map((row) => presentTld(row, settings, language)),
    };
  }

  /** Free in this panel = not a domain of the panel yet, and its TLD is sold by the user's tenant. */
  async domainCheck(user: UserRow, input: string, language: string): Promise<DomainCheck> {
    const { db } = this.deps;
    const settings = await ensureShop(db, user.tenant_id);
    const name = toStoredDomainName(input);
    if (!name) return { name: input, text: input, tld: '', available: false, reason: 'invalid', price: null };
    const tlds = await listTlds(db, user.tenant_id, true);
    const sold = tldOf(name, tlds);
    const base = { name, text: displayDomainName(name) };
    if (!sold) return { ...base, tld: name.split('.').slice(1).join('.'), available: false, reason: 'unsupported_tld', price: null };
    const tld = tlds.find((t) => t.tld === sold.tld);
    const tldPrice = tld ? presentTld(tld, settings, language) : null;
    if (!sold.registrable) return { ...base, tld: sold.tld, available: false, reason: 'invalid', price: tldPrice };
    const taken = await nameHeld(db, name, this.deps.clock.now());
    return { ...base, tld: sold.tld, available: !taken, reason: taken ? 'taken' : null, price: tldPrice };
  }

  async paymentOptions(user: UserRow): Promise<{ id: 'credit' | 'bank_transfer' | 'stripe'; enabled: boolean }[]> {
    return Promise.all(
      this.deps.providers.all().map(async (provider) => ({ id: provider.id, enabled: await provider.enabled(user.tenant_id) })),
    );
  }

  /** What the user's active plans include and what they use of it (modules/shop/plan-limits.ts). */
  async planUsage(user: UserRow): Promise<PlanUsage> {
    const { db, clock } = this.deps;
    const [allowance, used] = await Promise.all([planAllowance(db, user.id, clock.now()), planUsage(db, user.id)]);
    return { allowance, used };
  }

  /**
   * Ends an active plan now and credits the unused part of what was paid for it, by the day, to
   * the customer's credit (as WHMCS credits unused time): upgrading or downgrading is cancelling
   * and buying the other plan with that credit. Runs once however many ask at the same instant.
   */
  async cancelSubscription(actor: Actor, id: number, language: string): Promise<{ title: string; refunded: number; formatted: string }> {
    const { db, clock } = this.deps;
    const user = actor.user;
    const now = clock.now();
    const result = await db.transaction().execute((trx) => endWithRefund(trx, user, id, now));
    await this.deps.audit.recordAction(
      actor,
      'subscription.cancelled',
      user.tenant_id,
      { type: 'user', id: user.id },
      { title: result.title, amount: result.refunded, currency: result.currency },
    );
    return { title: result.title, refunded: result.refunded, formatted: formatMoney(result.refunded, result.currency, language) };
  }

  /** The user's hosting plans: active or expired, with the plan's current prices (/account/services). */
  async subscriptions(user: UserRow, language: string) {
    const { db, clock } = this.deps;
    const [rows, settings, plans, unpaid] = await Promise.all([
      listSubscriptions(db, user.id),
      ensureShop(db, user.tenant_id),
      listPlans(db, user.tenant_id, false),
      unpaidPlanRenewals(db, user.id),
    ]);
    const now = clock.now().getTime();
    return rows.map((row) => {
      const plan = plans.find((candidate) => candidate.id === row.plan_id);
      return {
        id: row.id,
        plan_id: row.plan_id,
        title: row.title,
        starts_at: iso(row.starts_at),
        expires_at: iso(row.expires_at),
        active: new Date(row.expires_at).getTime() > now,
        auto_renew: row.auto_renew,
        renewal_invoice: renewalInvoiceOf(
          unpaid.find((invoice) => invoice.subscription_id === row.id),
          language,
        ),
        plan: plan ? presentPlan(plan, settings, language) : null,
      };
    });
  }

  /** The owner switches a plan's automatic renewal (modules/billing renews it before it ends). */
  async setAutoRenew(actor: Actor, id: number, autoRenew: boolean, language: string) {
    const user = actor.user;
    const row = await setSubscriptionAutoRenew(this.deps.db, id, user.id, autoRenew);
    if (!row) throw new HttpError(404, 'http.not_found');
    await this.deps.audit.recordAction(
      actor,
      autoRenew ? 'subscription.auto_renew_on' : 'subscription.auto_renew_off',
      user.tenant_id,
      { type: 'user', id: user.id },
      { title: row.title },
    );
    const data = (await this.subscriptions(user, language)).find((candidate) => candidate.id === row.id)!;
    const lang = languageOf({ language });
    const date = formatDate(new Date(row.expires_at), lang);
    return { data, message: translate(lang, autoRenew ? 'services.auto_renew_on' : 'services.auto_renew_off', { title: row.title, date }) };
  }

  /* ---- administration: `tenantId` is the admin's shop tenant (shopTenantOf) ---- */

  async adminCatalogue(admin: UserRow, tenantId: number, language: string) {
    assertAdmin(admin);
    const { db } = this.deps;
    const settings = await ensureShop(db, tenantId);
    const [plans, tlds] = await Promise.all([listPlans(db, tenantId, false), listTlds(db, tenantId, false)]);
    return {
      settings: presentSettings(settings),
      plans: plans.map((row) => presentPlan(row, settings, language)),
      tlds: tlds.map((row) => presentTld(row, settings, language)),
    };
  }

  async updateSettings(actor: Actor, tenantId: number, input: ShopSettingsPayload, language: string) {
    assertAdmin(actor.user);
    const { db, clock } = this.deps;
    const current = await ensureShop(db, tenantId);
    const min = input.top_up_min ?? Number(current.top_up_min);
    const max = input.top_up_max ?? Number(current.top_up_max);
    if (min > max) throw fieldError(input.top_up_min !== undefined ? 'top_up_min' : 'top_up_max', 'shop.limits_order');
    if (input.currency !== undefined && input.currency !== current.currency && (await this.hasMoney(tenantId)))
      throw fieldError('currency', 'shop.currency_locked');
    await updateShopSettings(db, tenantId, {
      ...(input.currency !== undefined ? { currency: input.currency } : {}),
      ...(input.vat_rate !== undefined ? { vat_rate_bp: percentToBp(input.vat_rate) } : {}),
      ...(input.commission_rate !== undefined ? { commission_rate_bp: percentToBp(input.commission_rate) } : {}),
      top_up_min: min,
      top_up_max: max,
      ...(input.renew_days_before !== undefined ? { renew_days_before: input.renew_days_before } : {}),
      ...(input.grace_days !== undefined ? { grace_days: input.grace_days } : {}),
      updated_at: clock.now(),
    });
    await this.deps.audit.recordAction(
      actor,
      'shop.settings_updated',
      tenantId,
      { type: 'tenant', id: tenantId },
      { changed: changedFields(Object.keys(input), presentSettings(current), presentSettings(await ensureShop(db, tenantId))) },
    );
    return this.adminCatalogue(actor.user, tenantId, language);
  }

  async createPlan(actor: Actor, tenantId: number, input: HostingPlanPayload, language: string): Promise<HostingPlan> {
    assertAdmin(actor.user);
    const { db, clock } = this.deps;
    const settings = await ensureShop(db, tenantId);
    const now = clock.now();
    const row = await insertPlan(db, { tenant_id: tenantId, ...input, created_at: now, updated_at: now });
    await this.deps.audit.recordAction(
      actor,
      'shop.plan_created',
      tenantId,
      { type: 'hosting_plan', id: row.id },
      { title: row.title, monthly_price: input.monthly_price, yearly_price: input.yearly_price },
    );
    return presentPlan(row, settings, language);
  }

  async updatePlan(
    actor: Actor,
    tenantId: number,
    id: number,
    input: z.infer<typeof hostingPlanPatchSchema>,
    language: string,
  ): Promise<HostingPlan> {
    assertAdmin(actor.user);
    const { db, clock } = this.deps;
    const settings = await ensureShop(db, tenantId);
    const before = await findPlan(db, tenantId, id);
    const row = await updatePlan(db, tenantId, id, { ...input, updated_at: clock.now() });
    if (!row || !before) throw new HttpError(404, 'http.not_found');
    await this.deps.audit.recordAction(
      actor,
      'shop.plan_updated',
      tenantId,
      { type: 'hosting_plan', id },
      { title: row.title, changed: changedFields(Object.keys(input), before, row) },
    );
    return presentPlan(row, settings, language);
  }

  async deletePlan(actor: Actor, tenantId: number, id: number): Promise<void> {
    assertAdmin(actor.user);
    const row = await deletePlan(this.deps.db, tenantId, id);
    if (!row) throw new HttpError(404, 'http.not_found');
    await this.deps.audit.recordAction(actor, 'shop.plan_deleted', tenantId, { type: 'hosting_plan', id }, { title: row.title });
  }

  async createTld(actor: Actor, tenantId: number, input: TldPricePayload, language: string): Promise<TldPrice> {
    assertAdmin(actor.user);
    const { db, clock } = this.deps;
    const settings = await ensureShop(db, tenantId);
    const now = clock.now();
    let row;
    try {
      row = await insertTld(db, { tenant_id: tenantId, ...input, created_at: now, updated_at: now });
    } catch (error) {
      if (isUniqueViolation(error, 'tld_prices_tenant_tld')) throw fieldError('tld', 'shop.tld_exists');
      throw error;
    }
    await this.deps.audit.recordAction(actor, 'shop.tld_created', tenantId, { type: 'tld_price', id: row.id }, { tld: row.tld });
    return presentTld(row, settings, language);
  }

  async updateTld(
    actor: Actor,
    tenantId: number,
    id: number,
    input: z.infer<typeof tldPricePatchSchema>,
    language: string,
  ): Promise<TldPrice> {
    assertAdmin(actor.user);
    const { db, clock } = this.deps;
    const settings = await ensureShop(db, tenantId);
    const before = await findTld(db, tenantId, id);
    const row = await updateTld(db, tenantId, id, { ...input, updated_at: clock.now() });
    if (!row || !before) throw new HttpError(404, 'http.not_found');
    await this.deps.audit.recordAction(
      actor,
      'shop.tld_updated',
      tenantId,
      { type: 'tld_price', id },
      { tld: row.tld, changed: changedFields(Object.keys(input), before, row) },
    );
    return presentTld(row, settings, language);
  }

  async deleteTld(actor: Actor, tenantId: number, id: number): Promise<void> {
    assertAdmin(actor.user);
    const row = await deleteTld(this.deps.db, tenantId, id);
    if (!row) throw new HttpError(404, 'http.not_found');
    await this.deps.audit.recordAction(actor, 'shop.tld_deleted', tenantId, { type: 'tld_price', id }, { tld: row.tld });
  }

  /** Whether amounts in the tenant's currency exist (invoices or credit), which pins the currency. */
  private hasMoney(tenantId: number): Promise<boolean> {
    return tenantHasMoney(this.deps.db, tenantId);
  }
}

const renewalInvoiceOf = (
  invoice: { id: number; number: string; gross: number | string; currency: string; due_at: Date | string | null } | undefined,
  language: string,
) =>
  invoice
    ? {
        id: invoice.id,
        number: invoice.number,
        amount: formatMoney(Number(invoice.gross), invoice.currency, language),
        due_at: invoice.due_at ? new Date(invoice.due_at).toISOString() : null,
      }
    : null;
