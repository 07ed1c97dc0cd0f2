import type { LanguageCode, RegistrationPayload } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { fieldError, tooManyRequests } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PasswordHasher } from '../../lib/password.ts';
import { randomToken, sha256 } from '../../lib/tokens.ts';
import type { AuditService } from '../audit/service.ts';
import { displayName, userLanguage, type MailSender } from '../auth/mail-port.ts';
import { assertNewPassword } from '../auth/new-password.ts';
import type { SecurityNotifier } from '../auth/notifier.ts';
import type { Reauthenticator } from '../auth/reauth.ts';
import type { FailureThrottle } from '../auth/throttle.ts';
import type { SessionService } from '../sessions/service.ts';
import { publicBaseUrl } from '../tenants/links.ts';
import type { ResolvedTenant } from '../tenants/service.ts';
import { findUserByTenantEmail, insertUser, type UserRow, changeUserEmail } from '../users/queries.ts';
import { claimVerification, replaceVerification } from './queries.ts';

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

const throttled = (seconds: number, key: 'registration.throttled' | 'http.too_many_requests') => tooManyRequests(key, seconds);

export class RegistrationService {
  private readonly deps: {
    db: Db;
    clock: Clock;
    hasher: PasswordHasher;
    audit: AuditService;
    mail: MailSender;
    captcha: CaptchaCheck;
    /** Registrations per IP: the answer can reveal a taken e-mail, so it is rationed. */
    ipThrottle: FailureThrottle;
    /** Wrong verification codes per IP. */
    verifyThrottle: FailureThrottle;
    /** Re-sent verification mails per user. */
    resendThrottle: FailureThrottle;
    reauth: Reauthenticator;
    notifier: SecurityNotifier;
    sessions: SessionService;
    fallbackUrl: string;
  };

  constructor(deps: RegistrationService['deps']) {
    this.deps = deps;
  }

  async register(input: RegistrationPayload & { g_recaptcha_response: string }, context: Context): Promise<UserRow> {
    const { db, clock, hasher, captcha, ipThrottle } = this.deps;
    const attempt = await ipThrottle.attempt(context.ip);
    if (attempt.wait > 0) throw throttled(attempt.wait, 'registration.throttled');

    const check = await captcha.verify(input.g_recaptcha_response, { hosts: context.tenant.hosts, ip: context.ip });
    if (!check.ok) {
      // A failed captcha is not a registration: it does not use up the address's allowance.
      await attempt.succeeded();
      const key =
        check.reason === 'missing' ? 'captcha.missing' : check.reason === 'unavailable' ? 'captcha.unavailable' : 'captcha.invalid';
      throw fieldError('g_recaptcha_response', key);
    }
    assertNewPassword(input.password, input.password_confirmation, [input.email]);
    if (await findUserByTenantEmail(db, context.tenant.id, input.email)) throw fieldError('email', 'registration.email_taken');

    const passwordHash = await hasher.hash(input.password);
    const code = randomToken(24);
    const now = clock.now();
    const user = await db
      .transaction()
      .execute(async (trx) => {
        const created = await insertUser(trx, {
          tenant_id: context.tenant.id,
          email: input.email.trim(),
          password_hash: passwordHash,
          role: 'customer',
          given_name: input.contact.given_name,
          sn: input.contact.sn,
          language: context.lang,
          email_verified_at: null,
        });
        await replaceVerification(trx, {
          code_hash: sha256(code),
          user_id: created.id,
          created_at: now,
          expires_at: new Date(now.getTime() + VERIFICATION_VALID_MS),
        });
        return created;
      })
      .catch((error: unknown) => {
        // Two registrations of one e-mail racing: the unique index decides, the loser gets the field error.
        if (String((error as { code?: string }).code) === '23505') throw fieldError('email', 'registration.email_taken');
        throw error;
      });
    await this.deps.audit.record({ action: 'auth.registration', tenantId: context.tenant.id, userId: user.id, ip: context.ip });
    await this.sendVerification(user, code, context.tenant);
    return user;
  }

  private async sendVerification(user: UserRow, code: string, tenant: ResolvedTenant): Promise<void> {
    await this.deps.mail.send({
      to: user.email,
      language: userLanguage(user),
      tenantId: tenant.id,
      tenantTitle: tenant.title,
      kind: 'verify_email',
      params: { name: displayName(user), code, link: `${publicBaseUrl(tenant, this.deps.fallbackUrl)}/register/verify/${code}` },
    });
  }

  async verify(code: string, context: { tenant: ResolvedTenant; ip: string }): Promise<void> {
    const { db, clock, verifyThrottle } = this.deps;
    const attempt = await verifyThrottle.attempt(context.ip);
    if (attempt.wait > 0) throw throttled(attempt.wait, 'http.too_many_requests');
    const userId = await db.transaction().execute((trx) => claimVerification(trx, sha256(code), clock.now()));
    if (userId === undefined) throw fieldError('code', 'registration.verify_invalid');
    await attempt.succeeded();
    await this.deps.audit.record({ action: 'auth.email_verified', tenantId: context.tenant.id, userId, ip: context.ip });
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
