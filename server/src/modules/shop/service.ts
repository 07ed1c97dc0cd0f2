import type {
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
import { findDomainByName } from '../domains/queries.ts';
import type { PaymentProviders } from '../payments/registry.ts';
import { assertAdmin, iso } from '../tenants/scope.ts';
import type { UserRow } from '../users/queries.ts';
import { bpToPercent, percentToBp, price } from './money.ts';
import {
  tenantHasMoney,
  deletePlan,
  deleteTld,
  ensureShop,
  insertPlan,
  insertTld,
  listPlans,
  listSubscriptions,
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
    const taken = (await findDomainByName(db, name)) !== undefined;
    return { ...base, tld: sold.tld, available: !taken, reason: taken ? 'taken' : null, price: tldPrice };
  }

  async paymentOptions(user: UserRow): Promise<{ id: 'credit' | 'bank_transfer' | 'stripe'; enabled: boolean }[]> {
    return Promise.all(
      this.deps.providers.all().map(async (provider) => ({ id: provider.id, enabled: await provider.enabled(user.tenant_id) })),
    );
  }

  async subscriptions(user: UserRow) {
    const rows = await listSubscriptions(this.deps.db, user.id);
    return rows.map((row) => ({
      id: row.id,
      plan_id: row.plan_id,
      title: row.title,
      starts_at: iso(row.starts_at),
      expires_at: iso(row.expires_at),
    }));
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
      updated_at: clock.now(),
    });
    await this.deps.audit.recordAction(
      actor,
      'shop.settings_updated',
      tenantId,
      { type: 'tenant', id: tenantId },
      { changed: Object.keys(input).join(',') },
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
    const row = await updatePlan(db, tenantId, id, { ...input, updated_at: clock.now() });
    if (!row) throw new HttpError(404, 'http.not_found');
    await this.deps.audit.recordAction(
      actor,
      'shop.plan_updated',
      tenantId,
      { type: 'hosting_plan', id },
      { changed: Object.keys(input).join(',') },
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
    const row = await updateTld(db, tenantId, id, { ...input, updated_at: clock.now() });
    if (!row) throw new HttpError(404, 'http.not_found');
    await this.deps.audit.recordAction(
      actor,
      'shop.tld_updated',
      tenantId,
      { type: 'tld_price', id },
      { tld: row.tld, changed: Object.keys(input).join(',') },
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
