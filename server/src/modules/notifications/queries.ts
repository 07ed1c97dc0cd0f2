import type { Db } from '../../db/connection.ts';

/** A user's notifications, newest first by id (ids grow with time; the (user_id, id) index serves it). */
export const listNotificationPage = (db: Db, q: { userId: number; unreadOnly: boolean; beforeId: number | undefined; limit: number }) => {
  let query = db.selectFrom('notifications').select(['id', 'type', 'text', 'read_at', 'created_at']).where('user_id', '=', q.userId);
  if (q.unreadOnly) query = query.where('read_at', 'is', null);
  if (q.beforeId !== undefined) query = query.where('id', '<', q.beforeId);
  return query.orderBy('id', 'desc').limit(q.limit).execute();
};

export type NotificationRow = Awaited<ReturnType<typeof listNotificationPage>>[number];

export const countUnread = async (db: Db, userId: number): Promise<number> =>
  Number(
    (
      await db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Marks one of the user's notifications read (keeping the first read time); undefined when it is not theirs. */
export const markRead = (db: Db, userId: number, id: number, now: Date) =>
  db
    .updateTable('notifications')
    .set((eb) => ({ read_at: eb.fn.coalesce('read_at', eb.val(now)) }))
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(['id', 'type', 'text', 'read_at', 'created_at'])
    .executeTakeFirst();

export const markAllRead = async (db: Db, userId: number, now: Date): Promise<number> => {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: now })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
};

/** Every notification a user is sent is a row first (deliver.ts), so one who was offline still finds it. */
export const insertNotification = (
  db: Db,
  values: { tenant_id: number | null; user_id: number; type: 'error' | 'notice' | 'warning' | 'info'; text: string; created_at: Date },
) => db.insertInto('notifications').values(values).returning('id').executeTakeFirstOrThrow();
