import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { altchaPayloadSchema, type AltchaPayload, type CaptchaConfig } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { getOrCreateSecret } from '../../lib/app-secrets.ts';
import type { Clock } from '../../lib/clock.ts';
import { claimCaptchaUse, deleteExpiredCaptchaUses } from './queries.ts';

export type CaptchaResult = { ok: true } | { ok: false; reason: 'missing' | 'invalid' | 'unavailable' };

export interface CaptchaContext {
  /** The tenant's host names: a reCAPTCHA token must have been issued on one of them. */
  hosts: string[];
  /** The client's IP address, passed on to Google as `remoteip`. */
  ip: string;
}

export interface CaptchaVerifier {
  publicConfig(): CaptchaConfig;
  /** A fresh ALTCHA challenge for the widget; undefined when the provider is reCAPTCHA. */
  altchaChallenge(): Promise<Challenge | undefined>;
  verify(token: string, context: CaptchaContext): Promise<CaptchaResult>;
}

export interface RecaptchaOptions {
  siteKey: string;
  secret: string;
  /** https://www.google.com/recaptcha/api/siteverify in production. */
  verifyUrl: string;
  /** Scores run from 0 (bot) to 1 (human); Google suggests 0.5. */
  minScore: number;
  /** How long to wait for Google before failing closed. */
  timeoutMs?: number;
}

export interface CaptchaVerifierOptions {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  recaptcha?: RecaptchaOptions | undefined;
  /** Shared by every instance; without it one is generated and kept in `app_secrets`. */
  altchaHmacKey?: string | undefined;
}

export const RECAPTCHA_ACTION = 'registerform';
export const ALTCHA_CHALLENGE_URL = '/api/captcha/altcha';
export const ALTCHA_CHALLENGE_TTL_MS = 10 * 60_000;
const RECAPTCHA_TIMEOUT_MS = 5_000;

/*
 * Proof of work (ALTCHA v2 PoW, the format the altcha v3 widget solves). In deterministic mode the
 * server derives the key for a random counter and publishes its prefix; the browser tries counters
 * from 0 upwards until it finds one with that prefix, so the work is `counter` PBKDF2 runs split
 * over the widget's workers. Verification only checks an HMAC of the derived key.
 * 5,000 PBKDF2 iterations x 200..400 counters measured 0.2-0.5 s in headless Chromium on 2 cores
 * (the widget pads to 0.5 s anyway); the server derives one key per challenge (~1 ms).
 */
const ALTCHA_ALGORITHM = 'PBKDF2/SHA-256';
const ALTCHA_COST = 5_000;
const ALTCHA_COUNTER_MIN = 200;
const ALTCHA_COUNTER_MAX = 400;

export async function createCaptchaVerifier(options: CaptchaVerifierOptions): Promise<CaptchaVerifier> {
  if (options.recaptcha) return recaptchaVerifier(options.recaptcha, options.log);
  const hmacKey = options.altchaHmacKey ?? (await getOrCreateSecret(options.db, 'altcha_hmac'));
  return altchaVerifier(options.db, options.clock, hmacKey);
}

/* ---- ALTCHA ---- */

/** The widget sends base64(JSON({ challenge, solution })); anything else is not a payload. */
function parseAltchaPayload(token: string): AltchaPayload | undefined {
  try {
    const json: unknown = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
    const parsed = altchaPayloadSchema.safeParse(json);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function altchaVerifier(db: Db, clock: Clock, hmacKey: string): CaptchaVerifier {
  // Two secrets as altcha-lib wants them, both derived from the one configured key.
  const hmacSignatureSecret = hmacKey;
  const hmacKeySignatureSecret = createHmac('sha256', hmacKey).update('altcha key signature').digest('hex');

  return {
    publicConfig: () => ({ provider: 'altcha', challenge_url: ALTCHA_CHALLENGE_URL }),

    altchaChallenge: () =>
      createChallenge({
        algorithm: ALTCHA_ALGORITHM,
        cost: ALTCHA_COST,
        counter: randomInt(ALTCHA_COUNTER_MAX, ALTCHA_COUNTER_MIN),
        deriveKey,
        // Expiry travels in the signed data, not in `expiresAt`: altcha-lib checks `expiresAt`
        // against the system time, and ours comes from the injected clock.
        data: { expires: Math.floor((clock.now().getTime() + ALTCHA_CHALLENGE_TTL_MS) / 1000) },
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      }),

    async verify(token) {
      if (!token.trim()) return { ok: false, reason: 'missing' };
      const payload = parseAltchaPayload(token.trim());
      if (!payload) return { ok: false, reason: 'invalid' };
      const expires = payload.challenge.parameters.data?.expires;
      if (typeof expires !== 'number' || !Number.isFinite(expires)) return { ok: false, reason: 'invalid' };
      const expiresAt = new Date(expires * 1000);
      const now = clock.now();
      if (expiresAt <= now) return { ok: false, reason: 'invalid' };

      let verified = false;
      try {
        const result = await verifySolution({
          challenge: payload.challenge,
          solution: payload.solution,
          deriveKey,
          hmacSignatureSecret,
          hmacKeySignatureSecret,
        });
        verified = result.verified;
      } catch {
        // altcha-lib throws on parameters it cannot even attempt (unknown algorithm, bad hex).
        verified = false;
      }
      if (!verified) return { ok: false, reason: 'invalid' };

      // One use per challenge: its signature is unique (random nonce and salt) and signed by us.
      await deleteExpiredCaptchaUses(db, now);
      const claimed = await claimCaptchaUse(db, payload.challenge.signature, expiresAt);
      return claimed ? { ok: true } : { ok: false, reason: 'invalid' };
    },
  };
}

/* ---- Google reCAPTCHA v3 ---- */

const siteverifyAnswerSchema = z.object({
  success: z.boolean(),
  score: z.number().optional(),
  action: z.string().optional(),
  hostname: z.string().optional(),
  'error-codes': z.array(z.string()).optional(),
});

/** `Example.com:8080` -> `example.com`: Google reports the page's host name without the port. */
function hostName(host: string): string {
  return host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
}

function recaptchaVerifier(config: RecaptchaOptions, log: FastifyBaseLogger): CaptchaVerifier {
  const timeoutMs = config.timeoutMs ?? RECAPTCHA_TIMEOUT_MS;
  const unavailable: CaptchaResult = { ok: false, reason: 'unavailable' };
  const invalid: CaptchaResult = { ok: false, reason: 'invalid' };

  return {
    publicConfig: () => ({ provider: 'recaptcha', site_key: config.siteKey, action: RECAPTCHA_ACTION }),

    altchaChallenge: () => Promise.resolve(undefined),

    async verify(token, context) {
      if (!token.trim()) return { ok: false, reason: 'missing' };
      const form = new URLSearchParams({ secret: config.secret, response: token.trim() });
      if (context.ip) form.set('remoteip', context.ip);

      let answer: z.infer<typeof siteverifyAnswerSchema>;
      try {
        const response = await fetch(config.verifyUrl, {
          method: 'POST',
          body: form,
          signal: AbortSignal.timeout(timeoutMs),
        });
        if (!response.ok) {
          log.warn({ status: response.status }, 'reCAPTCHA siteverify answered an error status');
          await response.body?.cancel();
          return unavailable;
        }
        const parsed = siteverifyAnswerSchema.safeParse(await response.json());
        if (!parsed.success) {
          log.warn('reCAPTCHA siteverify answered something unexpected');
          return unavailable;
        }
        answer = parsed.data;
      } catch (error) {
        log.warn({ err: error }, 'reCAPTCHA siteverify unreachable');
        return unavailable;
      }

      if (!answer.success) {
        const codes = answer['error-codes'] ?? [];
        // Our own misconfiguration is not the visitor's fault: fail closed, but say so loudly.
        if (codes.some((code) => code.includes('secret'))) {
          log.error({ codes }, 'reCAPTCHA rejected the configured secret');
          return unavailable;
        }
        return invalid;
      }
      if (answer.action !== RECAPTCHA_ACTION) return invalid;
      const hosts = new Set(context.hosts.map(hostName));
      if (!answer.hostname || !hosts.has(hostName(answer.hostname))) return invalid;
      if (typeof answer.score !== 'number' || answer.score < config.minScore) return invalid;
      return { ok: true };
    },
  };
}
