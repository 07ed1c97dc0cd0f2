import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { PromoCodesTable } from '../../db/schema.ts';

export type PromoRow = Selectable<PromoCodesTable>;

const jsonb = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;

/** jsonb lists go in as jsonb literals (pg would send a JS array as a PostgreSQL array). */
function withJsonLists<T extends Partial<Pick<PromoRow, 'kinds' | 'plan_ids' | 'tlds'>>>(values: T): T {
  const out: Record<string, unknown> = { ...values };
  for (const key of ['kinds', 'plan_ids', 'tlds'] as const) if (values[key] !== undefined) out[key] = jsonb(values[key]);
  return out as T;
}

export const findPromoByCode = (db: Db, tenantId: number, code: string) =>
  db
    .selectFrom('promo_codes')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where(sql<string>`upper(code)`, '=', code.toUpperCase())
    .executeTakeFirst();

export const findPromo = (db: Db, tenantId: number, id: number) =>
  db.selectFrom('promo_codes').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();

export const listPromos = (db: Db, tenantId: number, beforeId: number | undefined, limit: number) => {
  let query = db.selectFrom('promo_codes').selectAll().where('tenant_id', '=', tenantId);
  if (beforeId !== undefined) query = query.where('id', '<', beforeId);
  return query.orderBy('id', 'desc').limit(limit).execute();
};

export const insertPromo = (db: Db, values: Insertable<PromoCodesTable>) =>
  db.insertInto('promo_codes').values(withJsonLists(values)).returningAll().executeTakeFirstOrThrow();

export const updatePromo = (db: Db, tenantId: number, id: number, values: Updateable<PromoCodesTable>) =>
  db
    .updateTable('promo_codes')
    .set(withJsonLists(values))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();

export const deletePromo = (db: Db, tenantId: number, id: number) =>
  db.deleteFrom('promo_codes').where('tenant_id', '=', tenantId).where('id', '=', id).returningAll().executeTakeFirst();

/** Whether the user has redeemed the code before (what once-per-customer forbids). */
export async function hasRedeemed(db: Db, promoId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('promo_redemptions')
    .select('id')
    .where('promo_id', '=', promoId)
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Claims one use inside the checkout transaction: the conditional increment lets exactly
 * `max_uses` claims through however many checkouts race (each waits for the row lock, then
 * re-checks `uses`); the window and `active` are checked in the same statement.
 */
export const claimUse = (trx: Db, promoId: number, now: Date) =>
  trx
    .updateTable('promo_codes')
    .set({ uses: sql`uses + 1` })
    .where('id', '=', promoId)
    .where('active', '=', true)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]))
    .where((eb) => eb.or([eb('valid_from', 'is', null), eb('valid_from', '<=', now)]))
    .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>', now)]))
    .returning(['id', 'uses'])
    .executeTakeFirst();

/** Records the redemption; for once-per-customer codes the unique (promo, once_key) refuses a second one. */
export const insertRedemption = (
  trx: Db,
  values: { promo_id: number; user_id: number; order_id: number; once_key: number | null; created_at: Date },
) =>
  trx
    .insertInto('promo_redemptions')
    .values(values)
    .onConflict((oc) => oc.columns(['promo_id', 'once_key']).doNothing())
    .returning('id')
    .executeTakeFirst();

export const findCartPromo = (db: Db, userId: number) =>
  db
    .selectFrom('cart_promos')
    .innerJoin('promo_codes', 'promo_codes.id', 'cart_promos.promo_id')
    .selectAll('promo_codes')
    .where('cart_promos.user_id', '=', userId)
    .executeTakeFirst();

export const setCartPromo = (db: Db, userId: number, promoId: number, now: Date) =>
  db
    .insertInto('cart_promos')
    .values({ user_id: userId, promo_id: promoId, applied_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ promo_id: promoId, applied_at: now }))
    .execute();

export const clearCartPromo = (db: Db, userId: number) => db.deleteFrom('cart_promos').where('user_id', '=', userId).executeTakeFirst();
