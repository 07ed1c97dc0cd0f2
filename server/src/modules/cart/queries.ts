import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { CartItemsTable } from '../../db/schema.ts';

export type CartItemRow = Selectable<CartItemsTable>;

export const listCartItems = (db: Db, userId: number) =>
  db.selectFrom('cart_items').selectAll().where('user_id', '=', userId).orderBy('id').execute();

/** The cart a checkout takes: its rows locked, so a concurrent checkout of the same cart waits and then finds it empty. */
export const lockCartItems = (trx: Db, userId: number) =>
  trx.selectFrom('cart_items').selectAll().where('user_id', '=', userId).orderBy('id').forUpdate().execute();

export const countCartItems = async (db: Db, userId: number): Promise<number> => {
  const row = await db
    .selectFrom('cart_items')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

export const findCartItem = (db: Db, userId: number, id: number) =>
  db.selectFrom('cart_items').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();

export const insertCartItem = (db: Db, values: Insertable<CartItemsTable>) =>
  db.insertInto('cart_items').values(values).returningAll().executeTakeFirstOrThrow();

export const updateCartItemPeriod = (db: Db, userId: number, id: number, periodMonths: number, priceMinor: number) =>
  db
    .updateTable('cart_items')
    .set({ period_months: periodMonths, price_minor: priceMinor })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .execute();

export const deleteCartItem = (db: Db, userId: number, id: number) =>
  db.deleteFrom('cart_items').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();

export const emptyCart = async (trx: Db, userId: number): Promise<void> => {
  await trx.deleteFrom('cart_items').where('user_id', '=', userId).execute();
  await trx.deleteFrom('cart_promos').where('user_id', '=', userId).execute();
};

/** Which of these stored names are already domains of the panel. */
export async function takenNames(db: Db, names: string[]): Promise<Set<string>> {
  if (!names.length) return new Set();
  const rows = await db.selectFrom('domains').select('name').where('name', 'in', names).execute();
  return new Set(rows.map((row) => row.name));
}
