import { z } from 'zod';

/** What a personal API token may reach: an area of the API, read (GET) or write (everything else). */
export const API_TOKEN_AREAS = ['domains', 'dns', 'mail', 'shop', 'customers'] as const;
export type ApiTokenArea = (typeof API_TOKEN_AREAS)[number];
export const API_TOKEN_SCOPES = API_TOKEN_AREAS.flatMap((area) => [`${area}:read`, `${area}:write`] as const);
export type ApiTokenScope = `${ApiTokenArea}:${'read' | 'write'}`;
/** Areas only admins may give their tokens (the routes behind them are admins' anyway). */
export const ADMIN_TOKEN_AREAS: readonly ApiTokenArea[] = ['customers'];
export const API_TOKENS_PER_USER_MAX = 20;
export const API_TOKEN_IPS_MAX = 20;

export const apiTokenSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The token's first characters (`berth_AbCd`), to tell tokens apart. */
  prefix: z.string(),
  scopes: z.array(z.string()),
  /** CIDR blocks it may be used from; empty: anywhere. */
  allowed_ips: z.array(z.string()),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  last_used_ip: z.string().nullable(),
  created_at: z.string(),
  /** Whose token it is (in the admins' list of the tenant's tokens). */
  owner: z.object({ id: z.number().int(), email: z.string(), display_name: z.string() }),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokenListAnswerSchema = z.object({ data: z.array(apiTokenSchema) });
/** The token itself is in this answer only: Berth keeps just its hash. */
export const apiTokenCreatedAnswerSchema = z.object({
  data: apiTokenSchema.extend({ token: z.string() }),
  message: z.string().optional(),
});

export const apiTokenCreatePayloadSchema = z.object({
  name: z.string().trim().min(1).max(80),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)).min(1, { error: 'api_tokens.scopes_required' }),
  /** ISO date-time in the future, or null/absent for a token that does not expire. */
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  allowed_ips: z.array(z.string().trim().max(64)).max(API_TOKEN_IPS_MAX).optional(),
});
export type ApiTokenCreatePayload = z.input<typeof apiTokenCreatePayloadSchema>;
