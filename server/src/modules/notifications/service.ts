import type { Notification, NotificationListAnswer } from '@berth/contracts';
import { z } from 'zod';
import type { Db } from '../../db/connection.ts';
import { decodeCursor, encodeCursor, pageOfRows } from '../../db/keyset.ts';
import { HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { iso, isoOrNull } from '../tenants/scope.ts';
import { countUnread, listNotificationPage, markAllRead, markRead, type NotificationRow } from './queries.ts';

const SORT = 'notifications';

function presentNotification(row: NotificationRow): Notification {
  return {
    id: Number(row.id),
    type: row.type,
    text: row.text,
    read: row.read_at !== null,
    read_at: isoOrNull(row.read_at),
    created_at: iso(row.created_at),
  };
}

/**
 * Everyone reads only their own notifications: another user's id is "not found", whatever the
 * reader's role. Reading one is not audited: it changes nothing but the reader's own view, like
 * opening a mail.
 */
export class NotificationService {
  private readonly db: Db;
  private readonly clock: Clock;

  constructor(db: Db, clock: Clock) {
    this.db = db;
    this.clock = clock;
  }

  async list(
    userId: number,
    query: { cursor?: string | undefined; limit: number; unread?: 'true' | 'false' | undefined },
  ): Promise<NotificationListAnswer> {
    const beforeId = query.cursor ? decodeCursor(query.cursor, SORT, z.tuple([z.number().int()]))[0] : undefined;
    const [rows, unread] = await Promise.all([
      listNotificationPage(this.db, { userId, unreadOnly: query.unread === 'true', beforeId, limit: query.limit + 1 }),
      countUnread(this.db, userId),
    ]);
    const page = pageOfRows(rows, query.limit, (row) => encodeCursor(SORT, [Number(row.id)]));
    return { data: page.rows.map(presentNotification), next_cursor: page.nextCursor, unread };
  }

  async markRead(userId: number, id: number): Promise<{ data: Notification; unread: number }> {
    const row = await markRead(this.db, userId, id, this.clock.now());
    if (!row) throw new HttpError(404, 'http.not_found');
    return { data: presentNotification(row), unread: await countUnread(this.db, userId) };
  }

  async markAllRead(userId: number): Promise<{ data: { marked: number }; unread: number }> {
    const marked = await markAllRead(this.db, userId, this.clock.now());
    return { data: { marked }, unread: await countUnread(this.db, userId) };
  }
}
