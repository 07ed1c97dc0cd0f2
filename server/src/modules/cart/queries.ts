import type { Db } from '../../db/connection.ts';

export const listCartItems = (db: Db, userId: number) =>
  db.selectFrom('cart_items').selectAll().where('user_id', '=', userId).orderBy('id').execute();
