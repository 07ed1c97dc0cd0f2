import { z } from 'zod';

/**
 * Outgoing webhooks (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`
 * headers, HMAC-SHA256 with the endpoint's `whsec_` secret). Every body is `webhookEventSchema`
 * with `version: 1`; `data` is the event's own schema below.
 */
export const WEBHOOK_EVENTS = [
  'certificate.failed',
  'customer.created',
  'domain.created',
  'domain.renewed',
  'domain.expired',
  'invoice.created',
  'invoice.paid',
  'invoice.overdue',
  'order.paid',
  'service.suspended',
  'service.unsuspended',
  'webhook.test',
] as const;
export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENTS);
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;
/** What an endpoint may subscribe to (the test event is sent on request only). */
export const SUBSCRIBABLE_EVENTS = WEBHOOK_EVENTS.filter((event) => event !== 'webhook.test');

/** An amount in the currency's major unit with two decimals ("12.10"). */
const money = z.object({ amount: z.string(), currency: z.string() });
const invoiceEvent = z.object({
  invoice: z.object({ id: z.number().int(), number: z.string(), customer_id: z.number().int(), total: money, kind: z.string() }),
});
const suspensionEvent = z.object({
  customer: z.object({ id: z.number().int(), email: z.string() }),
  /** The unpaid invoices the suspension is for (suspended) or that were left when it ended (unsuspended). */
  invoices: z.array(z.object({ id: z.number().int(), number: z.string() })),
});
export const webhookEventDataSchemas = {
  /** An order for a domain's certificate failed; it is tried again at `next_try_at` (a valid certificate, if any, stays in use). */
  'certificate.failed': z.object({
    domain: z.object({ id: z.number().int(), name: z.string(), owner_id: z.number().int().nullable() }),
    names: z.array(z.string()),
    problem: z.string(),
    attempts: z.number().int(),
    next_try_at: z.string(),
    /** The end of the certificate still in use, or null when there is none. */
    valid_until: z.string().nullable(),
  }),
  'customer.created': z.object({ customer: z.object({ id: z.number().int(), email: z.string(), name: z.string() }) }),
  'domain.created': z.object({ domain: z.object({ id: z.number().int(), name: z.string(), owner_id: z.number().int().nullable() }) }),
  /** An expired domain was not renewed within the grace period and is no longer served. */
  'domain.expired': z.object({
    domain: z.object({ id: z.number().int(), name: z.string(), owner_id: z.number().int(), expire_at: z.string() }),
  }),
  'domain.renewed': z.object({
    domain: z.object({ id: z.number().int(), name: z.string(), owner_id: z.number().int(), expire_at: z.string() }),
    invoice_number: z.string(),
  }),
  'invoice.created': invoiceEvent,
  'invoice.paid': invoiceEvent,
  'invoice.overdue': invoiceEvent.extend({ due_at: z.string(), step: z.number().int() }),
  'order.paid': z.object({ order: z.object({ id: z.number().int(), invoice_number: z.string(), customer_id: z.number().int() }) }),
  'service.suspended': suspensionEvent,
  'service.unsuspended': suspensionEvent,
  'webhook.test': z.object({ message: z.string() }),
} satisfies Record<WebhookEventType, z.ZodType>;
export type WebhookEventData<T extends WebhookEventType> = z.infer<(typeof webhookEventDataSchemas)[T]>;

export const webhookEventSchema = z.object({
  id: z.string(),
  type: webhookEventTypeSchema,
  version: z.literal(1),
  created_at: z.string(),
  tenant_id: z.number().int(),
  data: z.record(z.string(), z.unknown()),
});
export type WebhookEvent = z.infer<typeof webhookEventSchema>;

/** http(s) only, no credentials in it, at most 2,000 characters. */
export const webhookUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    // The URL parser drops tabs and newlines silently; a stored address must be what was checked.
    if ([...value].some((char) => char.trim() === '' || char.charCodeAt(0) < 32 || char.charCodeAt(0) === 127)) return false;
    try {
      const url = new URL(value);
      return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'webhooks.url_invalid');

export const webhookEndpointPayloadSchema = z.object({
  url: webhookUrlSchema,
  description: z.string().trim().max(200).default(''),
  events: z
    .array(z.enum(SUBSCRIBABLE_EVENTS as unknown as [string, ...string[]]))
    .min(1)
    .max(SUBSCRIBABLE_EVENTS.length),
  enabled: z.boolean().default(true),
});
export type WebhookEndpointPayload = z.input<typeof webhookEndpointPayloadSchema>;
export type WebhookEndpointInput = z.output<typeof webhookEndpointPayloadSchema>;
export const webhookEndpointUpdateSchema = z.object({
  url: webhookUrlSchema.optional(),
  description: z.string().trim().max(200).optional(),
  events: webhookEndpointPayloadSchema.shape.events.optional(),
  enabled: z.boolean().optional(),
});
export type WebhookEndpointUpdate = z.output<typeof webhookEndpointUpdateSchema>;

export const webhookEndpointSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  /** Until when the secret before the last rotation still signs (null: no grace period running). */
  previous_secret_until: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
export const webhookEndpointsAnswerSchema = z.object({ data: z.array(webhookEndpointSchema) });
/** Create and rotate: the secret is in this answer only. */
export const webhookSecretAnswerSchema = z.object({
  data: webhookEndpointSchema.extend({ secret: z.string() }),
  message: z.string(),
});

/** One delivery attempt: the endpoint's delivery log, newest first. */
export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  event_id: z.string(),
  event_type: z.string(),
  attempt: z.number().int(),
  status: z.enum(['delivered', 'failed']),
  response_code: z.number().int().nullable(),
  /** The first 1 KB of the endpoint's answer. */
  response_excerpt: z.string().nullable(),
  /** Why it failed without an answer (refused address, timeout, connection refused). */
  error: z.string().nullable(),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveriesAnswerSchema = z.object({ data: z.array(webhookDeliverySchema) });

/* ---- /api/system/webhooks/allowed-ranges (super admins: webhooks.allow_ranges) ---- */

/** Most ranges the super admin may allow (each a line in the page's form). */
export const WEBHOOK_ALLOWED_RANGES_MAX = 50;

/** An IPv4 or IPv6 address, or a range in CIDR notation ("10.20.0.0/16", "fd00::/8"). */
export const addressRangeSchema = z
  .string()
  .trim()
  .max(64)
  .refine(
    (value) => {
      const [address = '', prefix, ...rest] = value.split('/');
      if (rest.length > 0) return false;
      const v4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(address);
      const v6 = !v4 && /^[0-9a-f:.]+$/i.test(address) && address.includes(':') && (address.match(/::/g)?.length ?? 0) <= 1;
      if (!v4 && !v6) return false;
      if (prefix === undefined) return true;
      return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (v4 ? 32 : 128);
    },
    { error: 'webhooks.range_invalid' },
  );

/**
 * Private or loopback ranges webhooks may be delivered to despite the address guard (an internal
 * automation host): `ranges` are the super admin's, `environment` the operator's
 * WEBHOOK_ALLOWED_RANGES, which only the deployment changes.
 */
export const webhookAllowedRangesSchema = z.object({ ranges: z.array(z.string()), environment: z.array(z.string()) });
export type WebhookAllowedRanges = z.infer<typeof webhookAllowedRangesSchema>;
export const webhookAllowedRangesAnswerSchema = z.object({ data: webhookAllowedRangesSchema, message: z.string().optional() });
export const webhookAllowedRangesPayloadSchema = z.object({
  ranges: z.array(addressRangeSchema).max(WEBHOOK_ALLOWED_RANGES_MAX),
});
export type WebhookAllowedRangesPayload = z.infer<typeof webhookAllowedRangesPayloadSchema>;
