import { randomInt, timingSafeEqual } from 'node:crypto';
import { offersOtpLogin, OTP_LENGTH } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { fieldError, HttpError, tooManyRequests } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { randomToken, sha256 } from '../../lib/tokens.ts';
import type { JobDefinition, JobQueue } from '../jobs/queue.ts';
import type { TenantResolver } from '../tenants/service.ts';
import type { AuditService } from '../audit/service.ts';
import { displayName, userLanguage, type MailSender } from '../auth/mail-port.ts';
import { type FailureThrottle, HOUR, MINUTE, type ThrottleRule } from '../auth/throttle.ts';
import { publicBaseUrl } from '../tenants/links.ts';
import type { ResolvedTenant } from '../tenants/service.ts';
import { findLoginCandidate, findUserById, type UserRow } from '../users/queries.ts';
import { bindOtpLogin, claimOtpLogin, countOtpAttempt, findOtpLogin, insertOtpLogin } from './queries.ts';

export const OTP_VALID_MS = 10 * 60 * 1000;
export const OTP_MAX_ATTEMPTS = 5;

interface Context {
  tenant: ResolvedTenant;
  ip: string;
}

const codeHash = (uniqId: string, code: string): string => sha256(`${uniqId}:${code}`);
const sameHash = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** One-time login codes: requests per address and per e-mail, wrong codes per account. */
export const OTP_THROTTLES = {
  requestIp: { name: 'otp-request-ip', limit: 20, windowMs: HOUR },
  requestEmail: { name: 'otp-request-email', limit: 5, windowMs: HOUR },
  account: { name: 'otp-account', limit: 5, windowMs: 15 * MINUTE },
} satisfies Record<string, ThrottleRule>;

/** Log in with a one-time code sent by e-mail; offered on the operator's tenant only (docs/product.md §6). */
export class OtpService {
  private readonly deps: {
    db: Db;
    clock: Clock;
    audit: AuditService;
    mail: MailSender;
    /** Requests per IP (answered 429) and per e-mail (silently no mail). */
    requestIpThrottle: FailureThrottle;
    requestEmailThrottle: FailureThrottle;
    /** Wrong codes per account: a fresh code does not reset it. */
    accountThrottle: FailureThrottle;
    /** Where the lookup and the mail run, after the answer (same work for every address). */
    jobs: JobQueue;
    tenants: Pick<TenantResolver, 'byId'>;
    fallbackUrl: string;
  };
  private readonly codeJob: JobDefinition<{ email: string; uniqId: string; tenantId: number; ip: string }>;

  constructor(deps: OtpService['deps']) {
    this.deps = deps;
    this.codeJob = deps.jobs.define(
      'otp_code',
      async ({ email, uniqId, tenantId, ip }) => {
        const tenant = await deps.tenants.byId(tenantId);
        if (tenant) await this.sendCode(email, uniqId, { tenant, ip });
      },
      // A code is good for minutes: retried for a few minutes, not an hour.
      { describe: (data) => data.email, retryLimit: 3, retryDelay: 10, retryDelayMax: 60 },
    );
  }

  private assertOffered(tenant: ResolvedTenant): void {
    if (!offersOtpLogin(tenant.id)) throw new HttpError(404, 'http.not_found');
  }

  /**
   * Answers a uniq_id for any e-mail after the same work: the row is written without a user, and
   * the account lookup, the code and the mail follow in the background, so neither answer nor
   * timing tells whether an account exists.
   */
  async request(email: string, context: Context): Promise<string> {
    this.assertOffered(context.tenant);
    const { db, clock } = this.deps;
    const { wait } = await this.deps.requestIpThrottle.attempt(context.ip);
    if (wait > 0) throw tooManyRequests('http.too_many_requests', wait);

    const uniqId = randomToken(16);
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + OTP_VALID_MS);
    // Every request for an address counts, known or not, so the count tells nothing either.
    const mayMail = (await this.deps.requestEmailThrottle.attempt(email.toLowerCase())).wait === 0;
    await insertOtpLogin(db, {
      uniq_id: uniqId,
      tenant_id: context.tenant.id,
      user_id: null,
      code_hash: null,
      created_at: now,
      expires_at: expiresAt,
    });
    if (mayMail) await this.codeJob.send({ email, uniqId, tenantId: context.tenant.id, ip: context.ip });
    return uniqId;
  }

  private async sendCode(email: string, uniqId: string, context: Context): Promise<void> {
    const { db } = this.deps;
    const user = await findLoginCandidate(db, context.tenant.id, email);
    if (!user) return;
    const code = String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
    await bindOtpLogin(db, uniqId, user.id, codeHash(uniqId, code));
    await this.deps.audit.record({ action: 'auth.otp.requested', tenantId: context.tenant.id, userId: user.id, ip: context.ip });
    const base = publicBaseUrl(context.tenant, this.deps.fallbackUrl);
    await this.deps.mail.send({
      to: user.email,
      language: userLanguage(user),
      tenantId: context.tenant.id,
      tenantTitle: context.tenant.title,
      kind: 'otp_code',
      params: {
        name: displayName(user),
        code,
        link: `${base}/password/otplogin?uniq_id=${encodeURIComponent(uniqId)}&otp=${code}`,
        minutes: OTP_VALID_MS / 60_000,
      },
    });
  }

  /** Checks the code bound to its uniq_id: 10 minutes, once, 5 tries; returns the user to sign in. */
  async login(uniqId: string, otp: string, context: Context): Promise<UserRow> {
    this.assertOffered(context.tenant);
    const { db, clock } = this.deps;
    const row = await findOtpLogin(db, uniqId);
    if (row?.user_id) {
      // Counted before the code is compared: simultaneous guesses get no more than the limit.
      const { wait } = await this.deps.accountThrottle.attempt(String(row.user_id));
      if (wait > 0) throw tooManyRequests('otp.throttled', wait);
    }
    const now = clock.now();
    const live =
      row &&
      row.user_id !== null &&
      row.code_hash !== null &&
      row.tenant_id === context.tenant.id &&
      !row.used_at &&
      row.attempts < OTP_MAX_ATTEMPTS &&
      new Date(row.expires_at).getTime() > now.getTime();
    const matches = live && sameHash(row.code_hash ?? '', codeHash(uniqId, otp.trim()));
    if (!row || !live || !matches || !(await claimOtpLogin(db, uniqId, OTP_MAX_ATTEMPTS, now))) {
      if (row) await countOtpAttempt(db, uniqId);
      await this.deps.audit.record({
        action: 'auth.otp.failure',
        tenantId: context.tenant.id,
        userId: row?.user_id ?? null,
        ip: context.ip,
      });
      throw fieldError('otp', 'otp.invalid');
    }
    const user = row.user_id === null ? undefined : await findUserById(db, row.user_id);
    if (!user || user.locked_at) throw fieldError('otp', 'otp.invalid');
    await this.deps.accountThrottle.reset(String(user.id));
    await this.deps.audit.record({ action: 'auth.otp.success', tenantId: context.tenant.id, userId: user.id, ip: context.ip });
    return user;
  }
}
