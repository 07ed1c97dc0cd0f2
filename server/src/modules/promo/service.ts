import type { Promo, PromoPatch, PromoPayload } from '@berth/contracts';
import { z } from 'zod';
import type { Db } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { decodeCursor, encodeCursor, pageOfRows } from '../../db/keyset.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { ensureShop, listPlans } from '../shop/queries.ts';
import { iso, isoOrNull } from '../tenants/scope.ts';
import type { UserRow } from '../users/queries.ts';
import { deletePromo, findPromo, insertPromo, listPromos, updatePromo, type PromoRow } from './queries.ts';
import { promoLabel } from './rules.ts';
import type { ProductKind } from '@berth/contracts';
import { changedFields } from '../audit/changes.ts';

const idCursor = z.tuple([z.number().int()]);

const presentPromo = (row: PromoRow, currency: string, language: string): Promo => ({
  id: row.id,
  code: row.code,
  kind: row.kind,
  value: Number(row.value),
  label: promoLabel(row, currency, language),
  valid_from: isoOrNull(row.valid_from),
  valid_until: isoOrNull(row.valid_until),
  max_uses: row.max_uses,
  uses: row.uses,
  once_per_customer: row.once_per_customer,
  kinds: row.kinds as ProductKind[],
  plan_ids: row.plan_ids,
  tlds: row.tlds,
  active: row.active,
  created_at: iso(row.created_at),
});

const toDate = (value: string | null | undefined): Date | null | undefined =>
  value === undefined ? undefined : value === null ? null : new Date(value);

/** Partners' promo codes (/system/partner/promo); who may is the policy's `promo.manage` (routes.ts). */
export class PromoAdmin {
  private readonly deps: { db: Db; clock: Clock; audit: AuditService };

  constructor(deps: PromoAdmin['deps']) {
    this.deps = deps;
  }

  async list(admin: UserRow, tenantId: number, page: { cursor?: string | undefined; limit: number }, language: string) {
    const settings = await ensureShop(this.deps.db, tenantId);
    const beforeId = page.cursor ? decodeCursor(page.cursor, 'promo', idCursor)[0] : undefined;
    const rows = await listPromos(this.deps.db, tenantId, beforeId, page.limit + 1);
    const result = pageOfRows(rows, page.limit, (row) => encodeCursor('promo', [row.id]));
    return { data: result.rows.map((row) => presentPromo(row, settings.currency, language)), next_cursor: result.nextCursor };
  }

  async create(actor: Actor, tenantId: number, input: PromoPayload, language: string): Promise<Promo> {
    const { db, clock } = this.deps;
    const settings = await ensureShop(db, tenantId);
    await this.validate(tenantId, input);
    const now = clock.now();
    let row;
    try {
      row = await insertPromo(db, {
        tenant_id: tenantId,
        ...input,
        valid_from: toDate(input.valid_from) ?? null,
        valid_until: toDate(input.valid_until) ?? null,
        created_at: now,
        updated_at: now,
      });
    } catch (error) {
      if (isUniqueViolation(error, 'promo_codes_tenant_code')) throw fieldError('code', 'promo.code_taken');
      throw error;
    }
    await this.deps.audit.recordAction(
      actor,
      'promo.created',
      tenantId,
      { type: 'promo', id: row.id },
      { code: row.code, kind: row.kind, value: Number(row.value), max_uses: row.max_uses },
    );
    return presentPromo(row, settings.currency, language);
  }

  async update(actor: Actor, tenantId: number, id: number, input: PromoPatch, language: string): Promise<Promo> {
    const { db, clock } = this.deps;
    const settings = await ensureShop(db, tenantId);
    const current = await findPromo(db, tenantId, id);
    if (!current) throw new HttpError(404, 'http.not_found');
    await this.validate(tenantId, {
      kind: input.kind ?? current.kind,
      value: input.value ?? Number(current.value),
      valid_from: input.valid_from !== undefined ? input.valid_from : isoOrNull(current.valid_from),
      valid_until: input.valid_until !== undefined ? input.valid_until : isoOrNull(current.valid_until),
      plan_ids: input.plan_ids ?? [],
    });
    if (input.max_uses !== undefined && input.max_uses !== null && input.max_uses < current.uses)
      throw fieldError('max_uses', 'validation.invalid');
    let row;
    try {
      const { valid_from, valid_until, ...rest } = input;
      row = await updatePromo(db, tenantId, id, {
        ...rest,
        ...(valid_from !== undefined ? { valid_from: toDate(valid_from) } : {}),
        ...(valid_until !== undefined ? { valid_until: toDate(valid_until) } : {}),
        updated_at: clock.now(),
      });
    } catch (error) {
      if (isUniqueViolation(error, 'promo_codes_tenant_code')) throw fieldError('code', 'promo.code_taken');
      throw error;
    }
    if (!row) throw new HttpError(404, 'http.not_found');
    await this.deps.audit.recordAction(
      actor,
      'promo.updated',
      tenantId,
      { type: 'promo', id },
      {
        code: row.code,
        changed: changedFields(
          Object.keys(input),
          presentPromo(current, settings.currency, language),
          presentPromo(row, settings.currency, language),
        ),
      },
    );
    return presentPromo(row, settings.currency, language);
  }

  async remove(actor: Actor, tenantId: number, id: number): Promise<string> {
    const row = await deletePromo(this.deps.db, tenantId, id);
    if (!row) throw new HttpError(404, 'http.not_found');
    await this.deps.audit.recordAction(actor, 'promo.deleted', tenantId, { type: 'promo', id }, { code: row.code });
    return row.code;
  }

  private async validate(
    tenantId: number,
    input: Pick<PromoPayload, 'kind' | 'value' | 'valid_from' | 'valid_until' | 'plan_ids'>,
  ): Promise<void> {
    if (input.kind === 'percent' && input.value > 100) throw fieldError('value', 'promo.percent_max');
    if (input.valid_from && input.valid_until && new Date(input.valid_until) <= new Date(input.valid_from))
      throw fieldError('valid_until', 'promo.window');
    if (input.plan_ids.length) {
      const plans = new Set((await listPlans(this.deps.db, tenantId, false)).map((plan) => plan.id));
      if (input.plan_ids.some((planId) => !plans.has(planId))) throw fieldError('plan_ids', 'validation.invalid');
    }
  }
}
