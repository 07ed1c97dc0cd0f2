import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import type { UserRow } from '../users/queries.ts';
import { type AuditRowValues, insertAuditEntry } from './queries.ts';

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
  | 'auth.registration_attempt'
  | 'auth.email_verified'
  | 'user.created'
  | 'user.password_changed'
  | 'user.email_changed'
  | 'user.profile_updated'
  | 'user.2fa_enabled'
  | 'user.passkey_added'
  | 'user.passkey_removed'
  | 'user.passkey_cloned'
  | 'auth.login.passkey'
  | 'user.2fa_disabled'
  | 'user.recovery_codes_regenerated'
  | 'user.session_revoked'
  | 'domain_user.password_changed'
  | 'domain_user.password_change_failed'
  | 'domain.created'
  | 'domain.updated'
  | 'domain.deleted'
  | 'domain.lapsed'
  | 'certificate.uploaded'
  | 'domain_user.created'
  | 'domain_user.updated'
  | 'domain_user.password_reset'
  | 'domain_user.deleted'
  | 'domain_user.autoreply_changed'
  | 'api_token.created'
  | 'api_token.revoked'
  | 'mail_alias.created'
  | 'mail_alias.deleted'
  | 'dns.record_created'
  | 'dns.record_updated'
  | 'dns.record_deleted'
  | 'dns.zone_imported'
  | 'domain.verified'
  | 'subscription.cancelled'
  | 'subscription.auto_renew_on'
  | 'subscription.auto_renew_off'
  | 'dns.dnssec_signed'
  | 'dns.dnssec_unsigned'
  | 'dns.dkim_published'
  | 'dns.dkim_rotation_started'
  | 'customer.created'
  | 'customer.updated'
  | 'customer.locked'
  | 'customer.unlocked'
  | 'customer.suspended'
  | 'customer.unsuspended'
  | 'customer.2fa_reset'
  | 'customer.deleted'
  | 'tenant.created'
  | 'tenant.updated'
  | 'tenant.security_updated'
  | 'tenant.logo_uploaded'
  | 'tenant.logo_removed'
  | 'tenant.admin_assigned'
  | 'tenant.admin_removed'
  | 'impersonation.started'
  | 'impersonation.stopped'
  | 'expiry.reminder_sent'
  | 'payment_method.added'
  | 'payment_method.default_set'
  | 'payment_method.removed'
  | 'tenant.bank_account_set'
  | 'tenant.seller_details_set'
  | 'tenant.bank_account_removed'
  | 'invoice.marked_paid'
  | 'invoice.paid_by_statement'
  | 'invoice.paid_by_stripe'
  | 'payments.bank_statement_imported'
  | 'webhooks.allowed_ranges_set'
  // the shop
  | 'shop.settings_updated'
  | 'shop.plan_created'
  | 'shop.plan_updated'
  | 'shop.plan_deleted'
  | 'shop.tld_created'
  | 'shop.tld_updated'
  | 'shop.tld_deleted'
  | 'cart.item_added'
  | 'cart.item_changed'
  | 'cart.item_removed'
  | 'cart.promo_applied'
  | 'cart.promo_removed'
  | 'order.created'
  | 'invoice.paid'
  | 'credit.top_up_requested'
  | 'credit.adjusted'
  | 'credit.adjust_refused'
  | 'promo.created'
  | 'promo.updated'
  | 'promo.deleted';

/** Who does something through the panel: the signed-in user, and the admin behind them when logged in as them. */
export interface Actor {
  user: UserRow;
  ip: string;
  impersonatorId: number | null;
}

export type AuditTargetType =
  | 'api_token'
  | 'domain'
  | 'domain_user'
  | 'mail_alias'
  | 'dns_record'
  | 'user'
  | 'tenant'
  | 'payment_method'
  | 'invoice'
  | 'cart_item'
  | 'order'
  | 'promo'
  | 'hosting_plan'
  | 'tld_price';

export interface AuditEntry {
  action: AuditAction;
  tenantId: number | null;
  userId: number | null;
  ip: string | null;
  /** Never a password, code or token. */
  data?: Record<string, string | number | boolean | null>;
  /** The object acted on. */
  target?: { type: AuditTargetType; id: number | string };
  impersonatorId?: number | null;
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
    await insertAuditEntry(this.db, this.row(entry));
  }

  /**
   * The row `record` would write, logged now: for a caller that writes it in a statement of its
   * own (the sign-in, modules/auth/service.ts).
   */
  row(entry: AuditEntry): AuditRowValues {
    this.log.info({ audit: entry }, entry.action);
    return {
      tenant_id: entry.tenantId,
      user_id: entry.userId,
      action: entry.action,
      ip: entry.ip,
      data: JSON.stringify(entry.data ?? {}),
      created_at: this.clock.now(),
      target_type: entry.target?.type ?? null,
      target_id: entry.target === undefined ? null : String(entry.target.id),
      impersonator_id: entry.impersonatorId ?? null,
    };
  }

  /** A panel action on an object of `tenantId` (the object's tenant, so that tenant's admins see it). */
  async recordAction(
    actor: Actor,
    action: AuditAction,
    tenantId: number | null,
    target: NonNullable<AuditEntry['target']>,
    data?: AuditEntry['data'],
  ): Promise<void> {
    await this.record({
      action,
      tenantId,
      userId: actor.user.id,
      ip: actor.ip,
      target,
      impersonatorId: actor.impersonatorId,
      ...(data ? { data } : {}),
    });
  }
}

/** Where routes get the author of a change from (the impersonation module knows the admin behind a session). */
export interface ActorSource {
  actor(request: FastifyRequest): Promise<Actor>;
}
