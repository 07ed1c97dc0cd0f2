import { timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/connection.ts';
import { HttpError, tooManyRequests } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PasswordHasher } from '../../lib/password.ts';
import { randomToken, sha256 } from '../../lib/tokens.ts';
import type { JobDefinition, JobQueue } from '../jobs/queue.ts';
import type { TenantResolver } from '../tenants/service.ts';
import type { AuditService } from '../audit/service.ts';
import { displayName, userLanguage, type MailSender } from '../auth/mail-port.ts';
import { assertNewPassword } from '../auth/new-password.ts';
import { personalContext, siteContext } from '../../lib/password-policy.ts';
import type { SecurityNotifier } from '../auth/notifier.ts';
import type { Reauthenticator } from '../auth/reauth.ts';
import { type FailureThrottle, HOUR, type ThrottleRule } from '../auth/throttle.ts';
import type { SessionService } from '../sessions/service.ts';
import { publicBaseUrl } from '../tenants/links.ts';
import type { ResolvedTenant } from '../tenants/service.ts';
import { findLoginCandidate, findUserById, updatePasswordHash, type UserRow } from '../users/queries.ts';
import { claimReset, findReset, replaceReset } from './queries.ts';
import { deleteUserSessions } from '../sessions/queries.ts';

export const RESET_VALID_MS = 60 * 60 * 1000;
/** An invitation to a customer an admin created: the same single-use link, valid a week. */
export const INVITE_VALID_DAYS = 7;

export interface RequestContext {
  tenant: ResolvedTenant;
  ip: string;
}

const sameHash = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Reset-link requests: per address of the requester and per e-mail address asked for. */
export const FORGOT_THROTTLES = {
  ip: { name: 'forgot-ip', limit: 20, windowMs: HOUR },
  email: { name: 'forgot-email', limit: 3, windowMs: HOUR },
} satisfies Record<string, ThrottleRule>;

export class PasswordService {
  private readonly deps: {
    db: Db;
    clock: Clock;
    hasher: PasswordHasher;
    audit: AuditService;
    sessions: SessionService;
    mail: MailSender;
    notifier: SecurityNotifier;
    reauth: Reauthenticator;
    /** Reset requests per IP (answered 429) and per e-mail (silently no mail: no enumeration). */
    forgotIpThrottle: FailureThrottle;
    forgotEmailThrottle: FailureThrottle;
    /** Where the lookup and the mail run, after the answer (same work for every address). */
    jobs: JobQueue;
    tenants: Pick<TenantResolver, 'byId'>;
    fallbackUrl: string;
  };
  private readonly resetJob: JobDefinition<{ email: string; tenantId: number; ip: string }>;

  constructor(deps: PasswordService['deps']) {
    this.deps = deps;
    this.resetJob = deps.jobs.define(
      'password_reset',
      async ({ email, tenantId, ip }) => {
        const tenant = await deps.tenants.byId(tenantId);
        if (tenant) await this.sendResetLink(email, { tenant, ip });
      },
      { describe: (data) => data.email },
    );
  }

  /**
   * Always the same answer after the same work: the throttles count on the request path, the
   * account lookup and the mail run in the background, so neither answer nor timing tells
   * whether the address has an account.
   */
  async forgot(email: string, context: RequestContext): Promise<void> {
    const { forgotIpThrottle, forgotEmailThrottle } = this.deps;
    const { wait } = await forgotIpThrottle.attempt(context.ip);
    if (wait > 0) throw tooManyRequests('http.too_many_requests', wait);
    const emailKey = `${context.tenant.id}:${email.toLowerCase()}`;
    if ((await forgotEmailThrottle.attempt(emailKey)).wait > 0) return;
    await this.resetJob.send({ email, tenantId: context.tenant.id, ip: context.ip });
  }

  private async sendResetLink(email: string, context: RequestContext): Promise<void> {
    const { db, clock } = this.deps;
    const user = await findLoginCandidate(db, context.tenant.id, email);
    if (!user) return;
    const uniqId = randomToken(12);
    const token = randomToken(32);
    const now = clock.now();
    await replaceReset(db, {
      uniq_id: uniqId,
      user_id: user.id,
      token_hash: sha256(token),
      created_at: now,
      expires_at: new Date(now.getTime() + RESET_VALID_MS),
    });
    await this.deps.audit.record({ action: 'auth.password_reset.requested', tenantId: context.tenant.id, userId: user.id, ip: context.ip });
    const link = `${publicBaseUrl(context.tenant, this.deps.fallbackUrl)}/password/reset/${uniqId}/${token}`;
    await this.deps.mail.send({
      to: user.email,
      language: userLanguage(user),
      tenantId: context.tenant.id,
      tenantTitle: context.tenant.title,
      kind: 'password_reset',
      params: { name: displayName(user), link, minutes: RESET_VALID_MS / 60_000 },
    });
  }

  /**
   * Mails a customer an admin has just created a link to choose their own password (the reset
   * link of /password/reset, valid INVITE_VALID_DAYS): the admin never knows it.
   */
  async invite(user: UserRow, tenant: ResolvedTenant, inviter: UserRow): Promise<void> {
    const uniqId = randomToken(12);
    const token = randomToken(32);
    const now = this.deps.clock.now();
    await replaceReset(this.deps.db, {
      uniq_id: uniqId,
      user_id: user.id,
      token_hash: sha256(token),
      created_at: now,
      expires_at: new Date(now.getTime() + INVITE_VALID_DAYS * 24 * HOUR),
    });
    await this.deps.mail.send({
      to: user.email,
      language: userLanguage(user),
      tenantId: tenant.id,
      tenantTitle: tenant.title,
      kind: 'customer_invite',
      params: {
        name: displayName(user),
        inviter: displayName(inviter),
        link: `${publicBaseUrl(tenant, this.deps.fallbackUrl)}/password/reset/${uniqId}/${token}`,
        days: INVITE_VALID_DAYS,
      },
    });
  }

  /**
   * Sets the new password from a reset link: the link works once and for 60 minutes; every
   * session of the user ends. Returns the user so the route can sign them in.
   */
  async reset(uniqId: string, token: string, password: string, confirmation: string, context: RequestContext): Promise<UserRow> {
    const { db, clock, hasher } = this.deps;
    const now = clock.now();
    const row = await findReset(db, uniqId);
    const valid = row && !row.used_at && new Date(row.expires_at).getTime() > now.getTime() && sameHash(row.token_hash, sha256(token));
    if (!row || !valid) throw new HttpError(422, 'password.reset_invalid');
    const user = await findUserById(db, row.user_id);
    if (!user) throw new HttpError(422, 'password.reset_invalid');
    // The password is checked before the link is spent, so a rejected password keeps the link usable.
    assertNewPassword(password, confirmation, [...personalContext(user), ...siteContext(context.tenant)]);
    const hash = await hasher.hash(password);
    const claimed = await db.transaction().execute(async (trx) => {
      if (!(await claimReset(trx, uniqId, now))) return false;
      await updatePasswordHash(trx, user.id, hash, now);
      await deleteUserSessions(trx, user.id);
      return true;
    });
    if (!claimed) throw new HttpError(422, 'password.reset_invalid');
    await this.deps.audit.record({ action: 'auth.password_reset.done', tenantId: context.tenant.id, userId: user.id, ip: context.ip });
    await this.deps.notifier.notify(user, 'password_changed', context);
    return { ...user, password_hash: hash };
  }

  /** The signed-in user's own change: current password first; other sessions end. */
  async change(
    user: UserRow,
    input: { current_password: string; password: string; password_confirmation: string },
    context: RequestContext & { sessionIdHash: string },
  ): Promise<void> {
    await this.deps.reauth.confirm(user, input.current_password, 'current_password');
    assertNewPassword(input.password, input.password_confirmation, [...personalContext(user), ...siteContext(context.tenant)]);
    await updatePasswordHash(this.deps.db, user.id, await this.deps.hasher.hash(input.password), this.deps.clock.now());
    await this.deps.sessions.destroyAllForUser(user.id, context.sessionIdHash);
    await this.deps.audit.record({ action: 'user.password_changed', tenantId: context.tenant.id, userId: user.id, ip: context.ip });
    await this.deps.notifier.notify(user, 'password_changed', context);
  }
}
