import type { Db } from '../../db/connection.ts';
import type { PasswordHasher } from '../../lib/password.ts';
import { HttpError, fieldError } from '../../http/errors.ts';
import type { AuditService } from '../audit/service.ts';
import type { SessionService } from '../sessions/service.ts';
import { findLoginCandidate, type UserRow } from '../users/queries.ts';
import type { FailureThrottle } from './throttle.ts';

export interface LoginInput {
  email: string;
  password: string;
  remember: boolean;
  tenantId: number;
  ip: string;
  userAgent: string | null;
  /** The cookie the browser came with: rotated away on login. */
  previousToken: string | undefined;
}

export interface LoginResult {
  user: UserRow;
  token: string;
  expiresAt: Date;
  twoFactorPending: boolean;
}

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

  async login(input: LoginInput): Promise<LoginResult> {
    const { db, hasher, sessions, audit, accountThrottle, ipThrottle } = this.deps;
    const accountKey = `${input.tenantId}:${input.email.toLowerCase()}`;
    const wait = Math.max(accountThrottle.retryAfter(accountKey), ipThrottle.retryAfter(input.ip));
    if (wait > 0) {
      await audit.record({ action: 'auth.login.throttled', tenantId: input.tenantId, userId: null, ip: input.ip });
      throw new HttpError(429, 'auth.throttled', { params: { seconds: wait }, headers: { 'retry-after': String(wait) } });
    }

    const user = await findLoginCandidate(db, input.tenantId, input.email);
    // An unknown account costs one argon2 verify too, so timing does not reveal which e-mails exist.
    const valid = user ? await hasher.verify(user.password_hash, input.password) : await hasher.verifyDummy(input.password);
    if (!user || !valid) {
      accountThrottle.fail(accountKey);
      ipThrottle.fail(input.ip);
      await audit.record({
        action: 'auth.login.failure',
        tenantId: input.tenantId,
        userId: user?.id ?? null,
        ip: input.ip,
      });
      throw fieldError('email', 'auth.failed');
    }
    if (user.locked_at) throw fieldError('email', 'auth.locked');

    accountThrottle.reset(accountKey);
    if (input.previousToken) await sessions.destroy(input.previousToken);
    const twoFactorPending = user.google2fa_enabled;
    const { token, expiresAt } = await sessions.create({
      userId: user.id,
      tenantId: input.tenantId,
      remember: input.remember,
      twoFactorPending,
      ip: input.ip,
      userAgent: input.userAgent,
    });
    await audit.record({
      action: 'auth.login.success',
      tenantId: input.tenantId,
      userId: user.id,
      ip: input.ip,
      data: { remember: input.remember, two_factor_pending: twoFactorPending },
    });
    return { user, token, expiresAt, twoFactorPending };
  }

  async logout(token: string | undefined, context: { tenantId: number; userId: number | null; ip: string }): Promise<void> {
    if (!token) return;
    await this.deps.sessions.destroy(token);
    if (context.userId !== null) {
      await this.deps.audit.record({ action: 'auth.logout', tenantId: context.tenantId, userId: context.userId, ip: context.ip });
    }
  }
}
