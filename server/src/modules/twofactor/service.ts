import { randomBytes } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Db } from '../../db/connection.ts';
import { fieldError, HttpError, tooManyRequests } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { sha256 } from '../../lib/tokens.ts';
import type { AuditService } from '../audit/service.ts';
import type { SecurityNotifier } from '../auth/notifier.ts';
import type { Reauthenticator } from '../auth/reauth.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { SecretBox } from '../../lib/secret-box.ts';
import { type Attempt, type FailureThrottle, MINUTE, type ThrottleRule } from '../auth/throttle.ts';
import type { SessionService } from '../sessions/service.ts';
import type { UserRow } from '../users/queries.ts';
import {
  activateSecret,
  claimRecoveryCode,
  claimTimeStep,
  countUnusedRecoveryCodes,
  deactivate,
  replaceRecoveryCodes,
  setPendingSecret,
  listStoredSeeds,
  resealPendingSecret,
  resealSecret,
} from './queries.ts';

export const RECOVERY_CODE_COUNT = 10;
const BASE32 = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** 16 characters of a 32-letter alphabet: 80 bits, shown as XXXX-XXXX-XXXX-XXXX. */
export function newRecoveryCode(): string {
  const bytes = randomBytes(16);
  const chars = [...bytes].map((b) => BASE32[b % 32]).join('');
  return chars.match(/.{4}/g)?.join('-') ?? chars;
}

const normalizeRecoveryCode = (code: string): string => code.toUpperCase().replace(/[^A-Z0-9]/g, '');
const hashRecoveryCode = (code: string): string => sha256(normalizeRecoveryCode(code));

export interface Actor {
  user: UserRow;
  ip: string;
  tenantId: number;
  tenantTitle: string;
  tenantPublicUrl: string | null;
  /** The stored hash of the caller's session: it survives when the others are ended. */
  sessionIdHash: string;
}

/** Wrong TOTP or recovery codes per pending login or account. */
export const SECOND_FACTOR_THROTTLE: ThrottleRule = { name: 'second-factor', limit: 5, windowMs: 15 * MINUTE };

export class TwoFactorService {
  private readonly deps: {
    db: Db;
    clock: Clock;
    audit: AuditService;
    sessions: SessionService;
    /** Wrong codes per user: shared by TOTP and recovery codes, so switching does not reset it. */
    codeThrottle: FailureThrottle;
    reauth: Reauthenticator;
    notifier: SecurityNotifier;
    issuer: string;
    /** Seeds are stored sealed (lib/secret-box.ts), never in plain text. */
    secrets: SecretBox;
    log?: FastifyBaseLogger;
  };

  constructor(deps: TwoFactorService['deps']) {
    this.deps = deps;
  }

  async status(user: UserRow) {
    return { enabled: user.google2fa_enabled, recovery_codes_remaining: await countUnusedRecoveryCodes(this.deps.db, user.id) };
  }

  async setup(actor: Actor, password: string) {
    if (actor.user.google2fa_enabled) throw new HttpError(409, 'twofactor.already_enabled');
    await this.deps.reauth.confirm(actor.user, password);
    const secret = generateSecret({ length: 20 });
    await setPendingSecret(this.deps.db, actor.user.id, this.deps.secrets.seal(secret));
    const otpauth = generateURI({ issuer: this.deps.issuer, label: actor.user.email, secret });
    const svg = await QRCode.toString(otpauth, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    return { secret, otpauth_url: otpauth, qr_code: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }

  /**
   * At start: every stored seed not yet sealed (stored before encryption) or sealed under a former
   * key is sealed under the current one, so no plain seed stays in the database. Answers how many.
   */
  async sealStoredSeeds(): Promise<number> {
    const { db, secrets } = this.deps;
    let sealed = 0;
    for (const row of await listStoredSeeds(db)) {
      if (row.google2fa_secret && secrets.needsReseal(row.google2fa_secret)) {
        await resealSecret(db, row.id, row.google2fa_secret, secrets.seal(secrets.open(row.google2fa_secret)));
        sealed++;
      }
      if (row.google2fa_pending_secret && secrets.needsReseal(row.google2fa_pending_secret)) {
        await resealPendingSecret(db, row.id, row.google2fa_pending_secret, secrets.seal(secrets.open(row.google2fa_pending_secret)));
        sealed++;
      }
    }
    return sealed;
  }

  /** A stored seed in plain text; a key that cannot open it is the server's fault, said cleanly. */
  private open(sealed: string): string {
    try {
      return this.deps.secrets.open(sealed);
    } catch (error) {
      this.deps.log?.error({ message: (error as Error).message }, 'a two-factor seed cannot be decrypted');
      throw new HttpError(503, 'http.unavailable');
    }
  }

  /** The time step a code matches within ±1 step of now, or undefined. */
  private async matchStep(secret: string, code: string, afterStep: number): Promise<number | undefined> {
    const epoch = Math.floor(this.deps.clock.now().getTime() / 1000);
    try {
      const result = await verify({ secret, token: code, epoch, epochTolerance: 30, afterTimeStep: afterStep });
      return result.valid && 'timeStep' in result ? Number(result.timeStep) : undefined;
    } catch {
      return undefined;
    }
  }

  async enable(actor: Actor, code: string): Promise<string[]> {
    const sealed = actor.user.google2fa_pending_secret;
    if (actor.user.google2fa_enabled) throw new HttpError(409, 'twofactor.already_enabled');
    if (!sealed) throw fieldError('code', 'twofactor.no_setup');
    const attempt = await this.attempt(actor.user.id);
    const secret = this.open(sealed);
    const step = await this.matchStep(secret, code, 0);
    if (step === undefined) throw fieldError('code', 'twofactor.invalid');
    await attempt.succeeded();
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.deps.db.transaction().execute(async (trx) => {
      await activateSecret(trx, actor.user.id, this.deps.secrets.seal(secret), step, this.deps.clock.now());
      await replaceRecoveryCodes(trx, actor.user.id, codes.map(hashRecoveryCode));
    });
    await this.afterCredentialChange(actor, 'user.2fa_enabled');
    return codes;
  }

  async disable(actor: Actor, password: string): Promise<void> {
    await this.deps.reauth.confirm(actor.user, password);
    await this.deps.db.transaction().execute(async (trx) => {
      await deactivate(trx, actor.user.id, this.deps.clock.now());
      await replaceRecoveryCodes(trx, actor.user.id, []);
    });
    await this.afterCredentialChange(actor, 'user.2fa_disabled');
  }

  async regenerateRecoveryCodes(actor: Actor, password: string): Promise<string[]> {
    await this.deps.reauth.confirm(actor.user, password);
    if (!actor.user.google2fa_enabled) throw new HttpError(409, 'twofactor.no_setup');
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await replaceRecoveryCodes(this.deps.db, actor.user.id, codes.map(hashRecoveryCode));
    await this.deps.audit.record({
      action: 'user.recovery_codes_regenerated',
      tenantId: actor.tenantId,
      userId: actor.user.id,
      ip: actor.ip,
    });
    await this.deps.notifier.notify(actor.user, 'recovery_codes_regenerated', {
      ip: actor.ip,
      tenant: { id: actor.tenantId, title: actor.tenantTitle, public_url: actor.tenantPublicUrl },
    });
    return codes;
  }

  private async afterCredentialChange(actor: Actor, action: 'user.2fa_enabled' | 'user.2fa_disabled'): Promise<void> {
    await this.deps.sessions.destroyAllForUser(actor.user.id, actor.sessionIdHash);
    await this.deps.audit.record({ action, tenantId: actor.tenantId, userId: actor.user.id, ip: actor.ip });
    await this.deps.notifier.notify(actor.user, action === 'user.2fa_enabled' ? 'two_factor_enabled' : 'two_factor_disabled', {
      ip: actor.ip,
      tenant: { id: actor.tenantId, title: actor.tenantTitle, public_url: actor.tenantPublicUrl },
    });
  }

  /** Counts a code try before it is checked (TOTP and recovery codes share the count). */
  async attempt(userId: number): Promise<Attempt> {
    const attempt = await this.deps.codeThrottle.attempt(String(userId));
    if (attempt.wait > 0) throw tooManyRequests('twofactor.throttled', attempt.wait);
    return attempt;
  }

  /** The second login step with a TOTP code: valid within ±1 step, and only once. */
  async verifyLoginCode(user: UserRow, code: string, context: { ip: string; tenantId: number }): Promise<void> {
    await this.attempt(user.id);
    const sealed = user.google2fa_secret;
    const secret = sealed ? this.open(sealed) : undefined;
    // A seed stored before encryption, or under a former key, is written again under the current one.
    if (sealed && secret && this.deps.secrets.needsReseal(sealed))
      await resealSecret(this.deps.db, user.id, sealed, this.deps.secrets.seal(secret));
    const step = secret ? await this.matchStep(secret, code, Number(user.google2fa_last_step)) : undefined;
    if (step === undefined || !(await claimTimeStep(this.deps.db, user.id, step))) {
      await this.failSecondFactor(user, context, 'totp');
      throw fieldError('code', 'twofactor.invalid');
    }
  }

  async verifyRecoveryCode(user: UserRow, code: string, context: { ip: string; tenantId: number }): Promise<void> {
    await this.attempt(user.id);
    const ok = await claimRecoveryCode(this.deps.db, user.id, hashRecoveryCode(code), this.deps.clock.now());
    if (!ok) {
      await this.failSecondFactor(user, context, 'recovery');
      throw fieldError('code', 'twofactor.recovery_invalid');
    }
    await this.deps.audit.record({ action: 'auth.recovery_code_used', tenantId: context.tenantId, userId: user.id, ip: context.ip });
  }

  private async failSecondFactor(user: UserRow, context: { ip: string; tenantId: number }, method: string): Promise<void> {
    await this.deps.audit.record({
      action: 'auth.2fa.failure',
      tenantId: context.tenantId,
      userId: user.id,
      ip: context.ip,
      data: { method },
    });
  }

  async succeedSecondFactor(user: UserRow): Promise<void> {
    await this.deps.codeThrottle.reset(String(user.id));
  }
}
