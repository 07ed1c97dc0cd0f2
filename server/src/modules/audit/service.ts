import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import { insertAuditEntry } from './queries.ts';

export type AuditAction =
  | 'auth.login.success'
  | 'auth.login.failure'
  | 'auth.login.throttled'
  | 'auth.logout'
  | 'auth.2fa.success'
  | 'auth.2fa.failure'
  | 'auth.recovery_code_used'
  | 'auth.otp.requested'
  | 'auth.otp.success'
  | 'auth.otp.failure'
  | 'auth.password_reset.requested'
  | 'auth.password_reset.done'
  | 'auth.registration'
  | 'auth.email_verified'
  | 'user.created'
  | 'user.password_changed'
  | 'user.2fa_enabled'
  | 'user.2fa_disabled'
  | 'user.recovery_codes_regenerated'
  | 'user.session_revoked'
  | 'domain_user.password_changed'
  | 'domain_user.password_change_failed';

export interface AuditEntry {
  action: AuditAction;
  tenantId: number | null;
  userId: number | null;
  ip: string | null;
  /** Never a password, code or token. */
  data?: Record<string, string | number | boolean | null>;
}

/** Security events go to the audit table and to the log, so they survive either one being lost. */
export class AuditService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly log: FastifyBaseLogger;

  constructor(db: Db, clock: Clock, log: FastifyBaseLogger) {
    this.db = db;
    this.clock = clock;
    this.log = log;
  }

  async record(entry: AuditEntry): Promise<void> {
    this.log.info({ audit: entry }, entry.action);
    await insertAuditEntry(this.db, {
      tenant_id: entry.tenantId,
      user_id: entry.userId,
      action: entry.action,
      ip: entry.ip,
      data: entry.data ?? {},
      created_at: this.clock.now(),
    });
  }
}
