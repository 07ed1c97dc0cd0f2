import { z } from 'zod';
import { LANGUAGES } from './constants.ts';
import { userSchema } from './user.ts';

/** docs/product.md §3: Language: id, code, title. */
export const languageSchema = z.object({ id: z.number().int(), code: z.enum(LANGUAGES), title: z.string() });
export type Language = z.infer<typeof languageSchema>;
export const languagesAnswerSchema = z.object({ data: z.array(languageSchema) });

/** PATCH /api/user/language */
export const languageChangePayloadSchema = z.object({ language: z.enum(LANGUAGES) });
export const userAnswerSchema = z.object({ data: userSchema, message: z.string().optional() });

/** PATCH /api/user/notification-viewed (docs/product.md §7) */
export const notificationViewedPayloadSchema = z.object({ notification: z.enum(['google2fa']) });

/** docs/product.md §3: Menu item; `route` is an in-app path, `href` an external link with `target`. */
export interface MenuItem {
  id: string;
  title: string;
  route: string | null;
  href: string | null;
  target: string | null;
  icon: string | null;
  badge: { class: string; label: string } | null;
  children: MenuItem[];
  is_iframe: boolean;
  isActive: boolean;
  isOpen: boolean;
}
export const menuItemSchema: z.ZodType<MenuItem> = z.lazy(() =>
  z.object({
    id: z.string(),
    title: z.string(),
    route: z.string().nullable(),
    href: z.string().nullable(),
    target: z.string().nullable(),
    icon: z.string().nullable(),
    badge: z.object({ class: z.string(), label: z.string() }).nullable(),
    children: z.array(menuItemSchema),
    is_iframe: z.boolean(),
    isActive: z.boolean(),
    isOpen: z.boolean(),
  }),
);
export const menuAnswerSchema = z.object({ data: z.array(menuItemSchema) });

/** docs/product.md §3: Domain: id, text, expire_at (null = no expiry). */
export const domainOptionSchema = z.object({ id: z.number().int(), text: z.string(), expire_at: z.string().nullable() });
export type DomainOption = z.infer<typeof domainOptionSchema>;
export const domainOptionsAnswerSchema = z.object({ data: z.array(domainOptionSchema) });

/** docs/product.md §3: Cart: rows list (the shop fills the rows). */
export const cartRowSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  price_formatted: z.string(),
});
export const cartAnswerSchema = z.object({ data: z.object({ rows: z.array(cartRowSchema) }) });

/** Realtime payloads on the user's private channels. */
export const notificationEventSchema = z.object({
  type: z.enum(['error', 'notice', 'warning', 'info']),
  text: z.string(),
});
export type NotificationEvent = z.infer<typeof notificationEventSchema>;
export const REALTIME_EVENTS = { notification: 'notification', cartUpdated: 'cart-updated' } as const;
export const realtimeChannel = {
  notifications: (userId: number) => `private-user.${userId}.notifications`,
  cart: (userId: number) => `private-user.${userId}.cart`,
};
