import { z } from 'zod';
import { emailAddressSchema } from '@berth/contracts';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

/** Every environment variable Berth reads; defaults are the embedded mode (`.env.example` mirrors this). */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  BERTH_DATA_DIR: z.string().min(1).default('./data'),
  BERTH_ADMIN_EMAIL: emailAddressSchema.default('admin@localhost'),
  BERTH_ADMIN_PASSWORD: z.preprocess(emptyAsUndefined, z.string().min(15).max(256).optional()),
  BERTH_PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  /** Webmail's address (Roundcube, served by `npm run services` at webmail.<panel host>): https://webmail.<BERTH_PUBLIC_URL's host>/ unless set. */
  BERTH_WEBMAIL_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z.preprocess(emptyAsUndefined, booleanFlag.default(false)),
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(19_456).default(19_456),
  ARGON2_TIME_COST: z.coerce.number().int().min(2).default(2),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  SMTP_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: emailAddressSchema.default('no-reply@localhost'),
  RECAPTCHA_SITE_KEY: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  RECAPTCHA_SECRET: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  RECAPTCHA_VERIFY_URL: z.url().default('https://www.google.com/recaptcha/api/siteverify'),
  RECAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  REDIS_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^rediss?$/ }).optional()),
  REDIS_KEY_PREFIX: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[\w.:-]+$/)
      .default('socket.io'),
  ),
  /**
   * Off: this instance answers requests and queues jobs but runs none (instances that only serve
   * the web beside ones that work the queue; the crash test queues jobs with nobody to take them).
   */
  JOB_WORKERS: z.preprocess(emptyAsUndefined, z.enum(['on', 'off']).default('on')),
  /** How often this instance runs the billing pass (modules/billing); 0: never (another instance does). */
  BILLING_EVERY_MINUTES: z.coerce.number().int().min(0).max(1440).default(60),
  /**
   * Address ranges webhooks may go to beyond public addresses (comma-separated CIDRs, e.g. an
   * intranet's 10.20.0.0/16): the operator's decision, off by default.
   */
  WEBHOOK_ALLOWED_RANGES: z.preprocess(emptyAsUndefined, z.string().optional()),
  /**
   * The ACME directory certificates are ordered from (modules/certificates). Unset: Let's Encrypt's
   * in production on PostgreSQL (where Berth's name servers answer DNS-01), none otherwise; `off`: none.
   */
  ACME_DIRECTORY_URL: z.preprocess(emptyAsUndefined, z.union([z.literal('off'), z.url({ protocol: /^https?$/ })]).optional()),
  /** The contact the CA writes to about the platform's account (expiry warnings, policy changes). */
  ACME_EMAIL: z.preprocess(emptyAsUndefined, emailAddressSchema.optional()),
  /** External Account Binding for CAs that require it (ZeroSSL and others): the key id and its base64url HMAC key. */
  ACME_EAB_KID: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  ACME_EAB_HMAC_KEY: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** A PEM file of roots the ACME server's own HTTPS is checked against besides the system's (a test CA's). */
  ACME_CA_FILE: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  /** How often this instance looks for certificates to order, renew or retry; 0: never (another instance does). */
  CERTIFICATES_EVERY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /** Off only for load benchmarks of one route by one caller (bench/); the presets are still declared. */
  RATE_LIMITS: z.preprocess(emptyAsUndefined, z.enum(['on', 'off']).default('on')),
  ALTCHA_HMAC_KEY: z.preprocess(emptyAsUndefined, z.string().min(16).optional()),
  /** Encrypts stored TOTP seeds (32 bytes, hex or base64); else a key generated into BERTH_DATA_DIR. */
  BERTH_SECRET_KEY: z.preprocess(emptyAsUndefined, z.string().min(32).optional()),
  /** Former keys, comma-separated, still able to open what they sealed (key rotation). */
  BERTH_SECRET_KEYS_OLD: z.preprocess(emptyAsUndefined, z.string().optional()),
  STRIPE_SECRET_KEY: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  STRIPE_WEBHOOK_SECRET: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  STRIPE_API_BASE: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).default('https://api.stripe.com')),
  /**
   * The resolvers that look up a customer's proof TXT record (modules/domains/proof.ts),
   * comma-separated `address` or `address:port`; empty: the system's (/etc/resolv.conf).
   */
  DNS_RESOLVERS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[\w.:[\]-]+(,[\w.:[\]-]+)*$/)
      .optional(),
  ),
});
export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Where the "Webmail" links lead: BERTH_WEBMAIL_URL, else webmail.<panel host> over HTTPS; null without a public URL. */
export function webmailUrl(config: Pick<Config, 'BERTH_WEBMAIL_URL' | 'BERTH_PUBLIC_URL'>): string | null {
  if (config.BERTH_WEBMAIL_URL) return config.BERTH_WEBMAIL_URL;
  if (!config.BERTH_PUBLIC_URL) return null;
  return `https://webmail.${new URL(config.BERTH_PUBLIC_URL).hostname}/`;
}

/** Parses the environment; a bad value throws a ConfigError naming each variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema
    .refine((c) => Boolean(c.RECAPTCHA_SITE_KEY) === Boolean(c.RECAPTCHA_SECRET), {
      path: ['RECAPTCHA_SECRET'],
      message: 'RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET must be set together',
    })
    .refine((c) => Boolean(c.STRIPE_SECRET_KEY) === Boolean(c.STRIPE_WEBHOOK_SECRET), {
      path: ['STRIPE_WEBHOOK_SECRET'],
      message: 'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together',
    })
    .safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}
