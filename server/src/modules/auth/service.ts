import type { Db } from '../../db/connection.ts';
import type { PasswordHasher } from '../../lib/password.ts';
import { fieldError, tooManyRequests } from '../../http/errors.ts';
import type { AuditService } from '../audit/service.ts';
import type { NewSessionRow, SessionService } from '../sessions/service.ts';
import type { UserRow } from '../users/queries.ts';
import { findLoginCandidateTakingTries, recordSignIn } from './queries.ts';
import { type FailureThrottle, MINUTE, type ThrottleRule } from './throttle.ts';

export interface LoginInput {
  email: string;
  password: string;
  tenantId: number;
  ip: string;
}

/** Failed logins: per account (on every host of every tenant) and per address. */
export const LOGIN_THROTTLES = {
  account: { name: 'login-account', limit: 5, windowMs: 15 * MINUTE },
  ip: { name: 'login-ip', limit: 100, windowMs: 15 * MINUTE },
} satisfies Record<string, ThrottleRule>;

export class AuthService {
  private readonly deps: {
    db: Db;
    hasher: PasswordHasher;
    sessions: SessionService;
    audit: AuditService;
    accountThrottle: FailureThrottle;
    ipThrottle: FailureThrottle;
  };

  constructor(deps: AuthService['deps']) {
    this.deps = deps;
  }

  /**
   * Checks the password step; the route then issues the (possibly 2FA-pending) session, whose row
   * `signIn` writes together with the tries' release and the audit row.
   */
  async login(input: LoginInput): Promise<{ user: UserRow; signIn: (session: NewSessionRow) => Promise<unknown> }> {
    const { db, hasher, audit, accountThrottle, ipThrottle } = this.deps;
    // One account is one throttle, on whichever tenant's host it is tried (a super admin is found
    // on every host); an unknown address is throttled by the address itself. Both tries are
    // counted before the password is checked, so a burst of guesses sent at once gets no more
    // checks than the limit; the account is found in the same statement.
    const { result: user, tries } = await accountThrottle.attemptPairWith(ipThrottle, input.ip, async (q) => {
      const found = await findLoginCandidateTakingTries(db, input.tenantId, input.email, q);
      return { result: found.user, key: found.key, hits: found.hits };
    });
    if (tries.wait > 0) {
      await tries.takeBack();
      await audit.record({ action: 'auth.login.throttled', tenantId: input.tenantId, userId: null, ip: input.ip });
      throw tooManyRequests('auth.throttled', tries.wait);
    }

    // An unknown account costs one argon2 verify too, so timing does not reveal which e-mails exist.
    const valid = user ? await hasher.verify(user.password_hash, input.password) : await hasher.verifyDummy(input.password);
    if (!user || !valid) {
      await audit.record({ action: 'auth.login.failure', tenantId: input.tenantId, userId: user?.id ?? null, ip: input.ip });
      throw fieldError('email', 'auth.failed');
    }
    if (user.locked_at) throw fieldError('email', 'auth.locked');

    const auditRow = audit.row({
      action: 'auth.login.success',
      tenantId: input.tenantId,
      userId: user.id,
      ip: input.ip,
      data: { two_factor_pending: user.google2fa_enabled },
    });
    return { user, signIn: (session) => recordSignIn(db, tries.onPass, auditRow, session) };
  }

  async logout(token: string | undefined, context: { tenantId: number; userId: number | null; ip: string }): Promise<void> {
    if (!token) return;
    await this.deps.sessions.destroy(token);
    if (context.userId !== null) {
      await this.deps.audit.record({ action: 'auth.logout', tenantId: context.tenantId, userId: context.userId, ip: context.ip });
    }
  }
}
