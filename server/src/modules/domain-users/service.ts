import type { Db } from '../../db/connection.ts';
import { tenantPasswordContext } from '../tenants/service.ts';
import { HttpError, tooManyRequests } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PasswordHasher } from '../../lib/password.ts';
import type { AuditService } from '../audit/service.ts';
import { assertNewPassword } from '../auth/new-password.ts';
import { type FailureThrottle, MINUTE, type ThrottleRule } from '../auth/throttle.ts';
import { findDomainUserByUid, updateDomainUserPassword } from './queries.ts';

/** Wrong uid and wrong password share one answer, on the combined field of docs/product.md §5. */
const invalidUidOrPassword = () =>
  new HttpError(422, 'domain_user.invalid', { fields: { valid_uid_and_password: [{ key: 'domain_user.invalid' }] } });

/** Wrong old passwords on the domain-user password change: per uid and per address. */
export const DOMAIN_USER_PASSWORD_THROTTLES = {
  uid: { name: 'domain-user-uid', limit: 5, windowMs: 15 * MINUTE },
  ip: { name: 'domain-user-ip', limit: 100, windowMs: 15 * MINUTE },
} satisfies Record<string, ThrottleRule>;

export class DomainUserPasswordService {
  private readonly deps: {
    db: Db;
    clock: Clock;
    hasher: PasswordHasher;
    audit: AuditService;
    uidThrottle: FailureThrottle;
    ipThrottle: FailureThrottle;
  };

  constructor(deps: DomainUserPasswordService['deps']) {
    this.deps = deps;
  }

  /** A mailbox/FTP user changes their own password with the old one (no panel login needed). */
  async change(
    input: { uid: string; user_password_old: string; user_password: string; user_password_confirmation: string },
    context: { tenantId: number; ip: string },
  ): Promise<string> {
    const { db, clock, hasher, uidThrottle, ipThrottle } = this.deps;
    const uidKey = input.uid.toLowerCase();
    // Counted before the old password is checked, so simultaneous guesses get no more checks than the limit.
    const tries = await uidThrottle.attemptPair(uidKey, ipThrottle, context.ip);
    if (tries.wait > 0) {
      await tries.takeBack();
      throw tooManyRequests('auth.throttled', tries.wait);
    }
    const account = await findDomainUserByUid(db, input.uid);
    const valid = account
      ? await hasher.verify(account.password_hash, input.user_password_old)
      : await hasher.verifyDummy(input.user_password_old);
    if (!account || !valid || !account.enabled) {
      await this.deps.audit.record({
        action: 'domain_user.password_change_failed',
        tenantId: account?.tenant_id ?? null,
        userId: null,
        ip: context.ip,
        data: { uid: uidKey },
      });
      throw invalidUidOrPassword();
    }
    assertNewPassword(
      input.user_password,
      input.user_password_confirmation,
      [account.uid, ...(await tenantPasswordContext(db, account.tenant_id))],
      {
        password: 'user_password',
        confirmation: 'user_password_confirmation',
      },
    );
    await tries.passed();
    await updateDomainUserPassword(db, account.id, await hasher.hash(input.user_password), clock.now());
    await this.deps.audit.record({
      action: 'domain_user.password_changed',
      tenantId: account.tenant_id,
      userId: null,
      ip: context.ip,
      data: { uid: account.uid },
    });
    return account.uid;
  }
}
