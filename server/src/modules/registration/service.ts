import type { LanguageCode, RegistrationPayload } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { fieldError, tooManyRequests } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PasswordHasher } from '../../lib/password.ts';
import { randomToken, sha256 } from '../../lib/tokens.ts';
import type { JobDefinition, JobQueue } from '../jobs/queue.ts';
import type { TenantResolver } from '../tenants/service.ts';
import type { AuditService } from '../audit/service.ts';
import { displayName, userLanguage, type MailSender } from '../auth/mail-port.ts';
import { assertNewPassword } from '../auth/new-password.ts';
import { siteContext } from '../../lib/password-policy.ts';
import type { SecurityNotifier } from '../auth/notifier.ts';
import type { Reauthenticator } from '../auth/reauth.ts';
import { type FailureThrottle, HOUR, MINUTE, type ThrottleRule } from '../auth/throttle.ts';
import type { SessionService } from '../sessions/service.ts';
import { publicBaseUrl } from '../tenants/links.ts';
import type { ResolvedTenant } from '../tenants/service.ts';
import { findUserByTenantEmail, insertUser, type UserRow, changeUserEmail } from '../users/queries.ts';
import { claimRegistration, claimVerification, replaceRegistration, replaceVerification } from './queries.ts';

export const VERIFICATION_VALID_MS = 24 * 60 * 60 * 1000;

/** What registration needs of the captcha module. */
export interface CaptchaCheck {
  verify(
    token: string,
    context: { hosts: string[]; ip: string },
  ): Promise<{ ok: true } | { ok: false; reason: 'missing' | 'invalid' | 'unavailable' }>;
}

interface Context {
  tenant: ResolvedTenant;
  ip: string;
  lang: LanguageCode;
}

interface SettleJob {
  tenantId: number;
  ip: string;
  lang: LanguageCode;
  input: { email: string; contact: { given_name: string; sn: string } };
  passwordHash: string;
}

const throttled = (seconds: number, key: 'registration.throttled' | 'http.too_many_requests') => tooManyRequests(key, seconds);

/** Registrations per address, verification link tries per address, resends per account. */
export const REGISTRATION_THROTTLES = {
  ip: { name: 'registration-ip', limit: 5, windowMs: HOUR },
  verify: { name: 'verify-ip', limit: 10, windowMs: 15 * MINUTE },
  resend: { name: 'verify-resend', limit: 3, windowMs: HOUR },
} satisfies Record<string, ThrottleRule>;

export class RegistrationService {
  private readonly deps: {
    db: Db;
    clock: Clock;
    hasher: PasswordHasher;
    audit: AuditService;
    mail: MailSender;
    captcha: CaptchaCheck;
    /** Registrations per IP: each costs a password hash and a mail. */
    ipThrottle: FailureThrottle;
    /** Wrong verification codes per IP. */
    verifyThrottle: FailureThrottle;
    /** Re-sent verification mails per user. */
    resendThrottle: FailureThrottle;
    /** Where the address is looked up and mailed, after the answer. */
    jobs: JobQueue;
    tenants: Pick<TenantResolver, 'byId'>;
    reauth: Reauthenticator;
    notifier: SecurityNotifier;
    sessions: SessionService;
    fallbackUrl: string;
  };
  /** The lookup and the mail after the answer; it carries the password's hash, never the password. */
  private readonly settleJob: JobDefinition<SettleJob>;

  constructor(deps: RegistrationService['deps']) {
    this.deps = deps;
    this.settleJob = deps.jobs.define(
      'registration',
      async ({ tenantId, ip, lang, input, passwordHash }) => {
        const tenant = await deps.tenants.byId(tenantId);
        if (tenant) await this.settle(input, passwordHash, { tenant, ip, lang });
      },
      { describe: (data) => data.input.email },
    );
  }

  /**
   * Takes a registration with the same answer whatever the address: the checks a visitor can see
   * (throttle, captcha, password rules) and the password hash run on the request path; whether
   * the address already has an account is looked at in the background. A new address gets its
   * activation link; an existing account's owner gets a notice instead, and nothing is created.
   */
  async register(input: RegistrationPayload & { g_recaptcha_response: string }, context: Context): Promise<void> {
    const { hasher, captcha, ipThrottle } = this.deps;
    const attempt = await ipThrottle.attempt(context.ip);
    if (attempt.wait > 0) throw throttled(attempt.wait, 'registration.throttled');

    const check = await captcha.verify(input.g_recaptcha_response, { hosts: context.tenant.hosts, ip: context.ip });
    if (!check.ok) {
      // A failed captcha is not a registration: it does not use up the network's allowance.
      await attempt.succeeded();
      const key =
        check.reason === 'missing' ? 'captcha.missing' : check.reason === 'unavailable' ? 'captcha.unavailable' : 'captcha.invalid';
      throw fieldError('g_recaptcha_response', key);
    }
    try {
      assertNewPassword(input.password, input.password_confirmation, [input.email, ...siteContext(context.tenant)]);
    } catch (error) {
      // Neither is a refused password: only registrations that can go on count.
      await attempt.succeeded();
      throw error;
    }
    const passwordHash = await hasher.hash(input.password);
    await this.settleJob.send({
      tenantId: context.tenant.id,
      ip: context.ip,
      lang: context.lang,
      input: { email: input.email, contact: { given_name: input.contact.given_name, sn: input.contact.sn } },
      passwordHash,
    });
  }

  private async settle(input: SettleJob['input'], passwordHash: string, context: Context): Promise<void> {
    const { db, clock } = this.deps;
    const { tenant } = context;
    const base = publicBaseUrl(tenant, this.deps.fallbackUrl);
    const owner = await findUserByTenantEmail(db, tenant.id, input.email);
    if (owner) {
      await this.deps.audit.record({ action: 'auth.registration_attempt', tenantId: tenant.id, userId: owner.id, ip: context.ip });
      await this.deps.mail.send({
        to: owner.email,
        language: userLanguage(owner),
        tenantId: tenant.id,
        tenantTitle: tenant.title,
        kind: 'registration_attempt',
        params: { name: displayName(owner), loginLink: `${base}/login`, resetLink: `${base}/password/forgot` },
      });
      return;
    }
    const code = randomToken(24);
    const now = clock.now();
    const email = input.email.trim();
    await replaceRegistration(db, {
      tenant_id: tenant.id,
      email,
      password_hash: passwordHash,
      given_name: input.contact.given_name,
      sn: input.contact.sn,
      language: context.lang,
      code_hash: sha256(code),
      created_at: now,
      expires_at: new Date(now.getTime() + VERIFICATION_VALID_MS),
    });
    const name = [input.contact.given_name, input.contact.sn].filter(Boolean).join(' ') || email;
    await this.mailVerification({ email, language: context.lang, name }, code, tenant);
  }

  private async sendVerification(user: UserRow, code: string, tenant: ResolvedTenant): Promise<void> {
    await this.mailVerification({ email: user.email, language: userLanguage(user), name: displayName(user) }, code, tenant);
  }

  private async mailVerification(to: { email: string; language: LanguageCode; name: string }, code: string, tenant: ResolvedTenant) {
    await this.deps.mail.send({
      to: to.email,
      language: to.language,
      tenantId: tenant.id,
      tenantTitle: tenant.title,
      kind: 'verify_email',
      params: { name: to.name, code, link: `${publicBaseUrl(tenant, this.deps.fallbackUrl)}/register/verify/${code}` },
    });
  }

  /**
   * Spends a mailed code: a pending registration's code makes it a verified customer (returned, so
   * the route signs them in); a changed address's code marks the user's address verified.
   */
  async verify(code: string, context: { tenant: ResolvedTenant; ip: string }): Promise<UserRow | undefined> {
    const { db, clock, verifyThrottle } = this.deps;
    const attempt = await verifyThrottle.attempt(context.ip);
    if (attempt.wait > 0) throw throttled(attempt.wait, 'http.too_many_requests');
    const now = clock.now();
    const outcome = await db
      .transaction()
      .execute(async (trx) => {
        const pending = await claimRegistration(trx, context.tenant.id, sha256(code), now);
        if (pending) {
          const created = await insertUser(trx, {
            tenant_id: pending.tenant_id,
            email: pending.email,
            password_hash: pending.password_hash,
            role: 'customer',
            given_name: pending.given_name,
            sn: pending.sn,
            language: pending.language,
            email_verified_at: now,
          });
          return { userId: created.id, registered: created };
        }
        const userId = await claimVerification(trx, sha256(code), now);
        return userId === undefined ? undefined : { userId, registered: undefined };
      })
      .catch((error: unknown) => {
        // The address got an account since (an admin created it): the registration cannot become a second one.
        if (String((error as { code?: string }).code) === '23505') return undefined;
        throw error;
      });
    if (!outcome) throw fieldError('code', 'registration.verify_invalid');
    await attempt.succeeded();
    const action = outcome.registered ? 'auth.registration' : 'auth.email_verified';
    await this.deps.audit.record({ action, tenantId: context.tenant.id, userId: outcome.userId, ip: context.ip });
    return outcome.registered;
  }

  async resend(user: UserRow, tenant: ResolvedTenant): Promise<void> {
    if (user.email_verified_at) return;
    const { wait } = await this.deps.resendThrottle.attempt(String(user.id));
    if (wait > 0) throw throttled(wait, 'http.too_many_requests');
    const code = randomToken(24);
    const now = this.deps.clock.now();
    await replaceVerification(this.deps.db, {
      code_hash: sha256(code),
      user_id: user.id,
      created_at: now,
      expires_at: new Date(now.getTime() + VERIFICATION_VALID_MS),
    });
    await this.sendVerification(user, code, tenant);
  }

  /**
   * A new e-mail address needs the current password and is unverified until its link is used;
   * the old address is told, and every other session ends.
   */
  async changeEmail(
    user: UserRow,
    input: { current_password: string; email: string },
    context: { tenant: ResolvedTenant; ip: string; sessionIdHash: string },
  ): Promise<void> {
    const { db, clock } = this.deps;
    await this.deps.reauth.confirm(user, input.current_password, 'current_password');
    const email = input.email.trim();
    if (email.toLowerCase() === user.email.toLowerCase()) return;
    if (await findUserByTenantEmail(db, user.tenant_id, email)) throw fieldError('email', 'registration.email_taken');
    const code = randomToken(24);
    const now = clock.now();
    const updated = await db
      .transaction()
      .execute(async (trx) => {
        const row = await changeUserEmail(trx, user.id, email, now);
        await replaceVerification(trx, {
          code_hash: sha256(code),
          user_id: user.id,
          created_at: now,
          expires_at: new Date(now.getTime() + VERIFICATION_VALID_MS),
        });
        return row;
      })
      .catch((error: unknown) => {
        if (String((error as { code?: string }).code) === '23505') throw fieldError('email', 'registration.email_taken');
        throw error;
      });
    await this.deps.sessions.destroyAllForUser(user.id, context.sessionIdHash);
    await this.deps.audit.record({ action: 'user.email_changed', tenantId: context.tenant.id, userId: user.id, ip: context.ip });
    await this.deps.notifier.notify(user, 'email_changed', { ip: context.ip, tenant: context.tenant });
    await this.sendVerification(updated, code, context.tenant);
  }
}
