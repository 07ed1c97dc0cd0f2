import { OPERATOR_TENANT_ID, type SecuritySettings, type SecuritySettingsPayload } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { RealtimeHub } from '../realtime/hub.ts';
import { assertAdmin } from '../tenants/scope.ts';
import { TENANTS_CHANGED } from '../tenants/service.ts';
import { findTwoFactorRules, setTwoFactorRule } from './queries.ts';

/**
 * Who must have a second factor: a tenant's host admins require it of their customers, super
 * admins of every admin. The rule itself is applied to each request (http/context.ts).
 */
export class SecuritySettingsService {
  private readonly deps: { db: Db; audit: AuditService; realtime: Pick<RealtimeHub, 'announceChange'> };

  constructor(deps: SecuritySettingsService['deps']) {
    this.deps = deps;
  }

  async get(actor: Actor, tenantId: number): Promise<SecuritySettings> {
    assertAdmin(actor.user);
    const [tenant, operator] = await Promise.all([
      findTwoFactorRules(this.deps.db, tenantId),
      findTwoFactorRules(this.deps.db, OPERATOR_TENANT_ID),
    ]);
    if (!tenant) throw new HttpError(404, 'http.not_found');
    return {
      require_2fa_customers: tenant.require_2fa_customers,
      require_2fa_admins: operator?.require_2fa_admins ?? false,
      can_change_admins: actor.user.role === 'super_admin',
    };
  }

  async update(actor: Actor, tenantId: number, input: SecuritySettingsPayload): Promise<SecuritySettings> {
    assertAdmin(actor.user);
    if (input.require_2fa_admins !== undefined) {
      if (actor.user.role !== 'super_admin') throw new HttpError(403, 'http.forbidden');
      // Requiring it of every admin while going without it would shut the super admin out next.
      if (input.require_2fa_admins && !actor.user.google2fa_enabled)
        throw fieldError('require_2fa_admins', 'security.own_two_factor_first');
    }
    const changes: [number, 'require_2fa_customers' | 'require_2fa_admins', boolean][] = [];
    if (input.require_2fa_customers !== undefined) changes.push([tenantId, 'require_2fa_customers', input.require_2fa_customers]);
    if (input.require_2fa_admins !== undefined) changes.push([OPERATOR_TENANT_ID, 'require_2fa_admins', input.require_2fa_admins]);
    for (const [id, column, value] of changes) {
      await setTwoFactorRule(this.deps.db, id, column, value);
      await this.deps.audit.recordAction(actor, 'tenant.security_updated', id, { type: 'tenant', id }, { [column]: String(value) });
    }
    // Every instance reads the rule with the tenant: drop their caches now.
    if (changes.length) await this.deps.realtime.announceChange(TENANTS_CHANGED);
    return this.get(actor, tenantId);
  }
}
