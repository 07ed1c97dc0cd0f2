import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { createClient } from 'redis';

/**
 * Every /api route declares one of these next to its schema (`config: { rateLimit: RATE_LIMITS.read }`),
 * counted per route and per caller: the signed-in user when there is one, else the address.
 * They guard against floods and scripted abuse; guessing passwords and codes is the job of the
 * account throttles (modules/auth/throttle.ts), which count per account across every host.
 * Why these presets and numbers: docs/decisions/0007-rate-limit-presets.md.
 */
export const RATE_LIMITS = {
  /** Sign-in, registration, reset and code requests, mostly anonymous: per address. */
  auth: { max: 60, timeWindow: 60_000 },
  /** Money moves: checkout and top-ups. */
  checkout: { max: 20, timeWindow: 60_000 },
  /** Anything that changes data. */
  write: { max: 120, timeWindow: 60_000 },
  /** Reading pages of the panel. */
  read: { max: 600, timeWindow: 60_000 },
  /** Files: avatars, logos, bank statements. */
  upload: { max: 20, timeWindow: 60_000 },
  /** Searches that cost more than a read (domain availability, exports). */
  search: { max: 60, timeWindow: 60_000 },
  /** What the login screen loads before anyone signs in: tenant, languages, captcha challenges. */
  public: { max: 300, timeWindow: 60_000 },
  /** Calls from payment providers' servers. */
  webhook: { max: 600, timeWindow: 60_000 },
} as const;
export type RateLimitPreset = keyof typeof RATE_LIMITS;

/** The part of the key that says who is calling: one user on every address, or one address. */
export const rateLimitKey = (request: FastifyRequest): string =>
  request.auth?.token
    ? `token:${request.auth.token.id}`
    : request.auth && !request.auth.session.twoFactorPending
      ? `user:${request.auth.user.id}`
      : `ip:${request.ip}`;

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];
/** The one command the counters need, as the `redis` client offers it. */
type Evaluator = { eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown> };

// INCR and set the window on the first hit, atomically: 30 requests at the same instant count 30.
const INCR_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return {current, ttl}`;

/**
 * The counters in Redis, shared by every instance. The plugin's own Redis store needs ioredis;
 * this one uses the `redis` client the realtime hub already depends on.
 */
function redisStore(client: Evaluator, prefix: string): FastifyRateLimitStoreCtor {
  return class RedisCounterStore implements FastifyRateLimitStore {
    readonly key: string;
    constructor(_options?: unknown, key = `${prefix}rate:`) {
      this.key = key;
    }
    incr(key: string, callback: Callback, timeWindow: number): void {
      client
        .eval(INCR_SCRIPT, { keys: [this.key + key], arguments: [String(timeWindow)] })
        .then((answer) => {
          const [current, ttl] = answer as [number, number];
          callback(null, { current, ttl });
        })
        .catch((error: Error) => callback(error));
    }
    child(routeOptions: object): FastifyRateLimitStore {
      // The plugin passes the route's merged options, with the route itself under routeInfo.
      const route = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo ?? {};
      return new RedisCounterStore(undefined, `${this.key}${route.method ?? ''}${route.url ?? ''}:`);
    }
  };
}

/**
 * Registers @fastify/rate-limit for routes that declare a preset, with Redis counters when
 * REDIS_URL is set (in-process otherwise). Counting runs after validation (preHandler), so bad
 * input is answered 422 without using the caller's allowance. Redis being away lets requests
 * through (skipOnError) rather than refusing everyone; the client fails fast instead of queueing.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  options: { redisUrl?: string | undefined; keyPrefix: string; log: FastifyBaseLogger; enabled?: boolean },
): Promise<void> {
  let store: FastifyRateLimitStoreCtor | undefined;
  if (options.redisUrl && options.enabled !== false) {
    const client = createClient({ url: options.redisUrl, disableOfflineQueue: true });
    let up = true;
    client.on('error', (error: Error) => {
      if (up) options.log.warn({ message: error.message }, 'redis unavailable; rate limits are not counted until it is back');
      up = false;
    });
    client.on('ready', () => {
      up = true;
    });
    await client.connect();
    app.addHook('onClose', async () => {
      await client.quit().catch(() => undefined);
    });
    store = redisStore(client as unknown as Evaluator, options.keyPrefix);
  }
  await app.register(rateLimit, {
    global: false,
    ...(options.enabled === false ? { allowList: () => true } : {}),
    hook: 'preHandler',
    // Counts go out only with a refusal: an allowed answer looks the same whoever asks and however
    // often (the login of an unknown and a known address must not differ in a header).
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    skipOnError: true,
    keyGenerator: rateLimitKey,
    ...(store ? { store } : {}),
  });

  // A route without a declared preset is a mistake caught at start, not a route without a limit.
  app.addHook('onRoute', (route) => {
    const url = route.url ?? '';
    if (!url.startsWith('/api/') || url.startsWith('/api/docs') || route.method === 'HEAD') return;
    const config = route.config as { rateLimit?: unknown } | undefined;
    if (!config?.rateLimit) throw new Error(`${String(route.method)} ${url} declares no rate limit preset (RATE_LIMITS)`);
  });
}
