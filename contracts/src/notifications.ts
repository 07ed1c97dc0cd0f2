import { z } from 'zod';
import { idSchema } from './hosting.ts';
import { PAGE_SIZE_MAX } from './hosting.ts';

/*
 * The signed-in user's notifications (/notifications): what the panel told them (expiry reminders,
 * ...), newest first. The same texts arrive live in the realtime notification channel.
 */

export const NOTIFICATION_TYPES = ['error', 'notice', 'warning', 'info'] as const;
export const NOTIFICATIONS_PAGE_SIZE_DEFAULT = 20;

/** Ids are bigserial: any safe integer (the int4 idSchema would refuse large ones). */
export const notificationParamsSchema = z.object({ id: idSchema });

export const notificationSchema = z.object({
  id: z.number().int(),
  type: z.enum(NOTIFICATION_TYPES),
  text: z.string(),
  read: z.boolean(),
  read_at: z.string().nullable(),
  created_at: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** GET /api/notifications: keyset pages (pass `next_cursor` back as `cursor`); `unread` only narrows to unread ones. */
export const notificationListQuerySchema = z.object({
  cursor: z.string().max(512).optional(),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(NOTIFICATIONS_PAGE_SIZE_DEFAULT),
  unread: z.enum(['true', 'false']).optional(),
});
export type NotificationListQuery = z.infer<typeof notificationListQuerySchema>;

/** A page, and how many of all the user's notifications are unread (for the badge and "mark all read"). */
export const notificationListAnswerSchema = z.object({
  data: z.array(notificationSchema),
  next_cursor: z.string().nullable(),
  unread: z.number().int(),
});
export type NotificationListAnswer = z.infer<typeof notificationListAnswerSchema>;

/** POST /api/notifications/{id}/read: the notification as it is now, and the unread count after. */
export const notificationReadAnswerSchema = z.object({ data: notificationSchema, unread: z.number().int() });

/** POST /api/notifications/read-all: how many were marked; nothing is unread afterwards. */
export const notificationsReadAllAnswerSchema = z.object({ data: z.object({ marked: z.number().int() }), unread: z.number().int() });
