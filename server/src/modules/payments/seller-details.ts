import type { SellerDetails } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { findTenantById } from '../tenants/queries.ts';
import { administers, assertAdmin } from '../tenants/scope.ts';
import type { UserRow } from '../users/queries.ts';
import { findSellerDetails, upsertSellerDetails } from './queries.ts';

/**
 * The seller named on the tenant's invoices (legal name, address, VAT ID), as its admins set it:
 * super admins for any tenant, host admins for theirs. Each invoice keeps a copy from the moment it
 * was issued (invoices/service.ts), so a later change does not alter an issued invoice.
 */
export class TenantSellerDetails {
  private readonly deps: { db: Db; clock: Clock; audit: AuditService };

  constructor(deps: TenantSellerDetails['deps']) {
    this.deps = deps;
  }

  async get(viewer: UserRow, tenantId: number): Promise<SellerDetails | null> {
    await this.assertAdministers(viewer, tenantId);
    return (await findSellerDetails(this.deps.db, tenantId)) ?? null;
  }

  async set(
    actor: Actor,
    tenantId: number,
    input: Omit<SellerDetails, 'vat_id' | 'email' | 'phone'> & {
      vat_id?: string | undefined;
      email?: string | undefined;
      phone?: string | undefined;
    },
  ): Promise<SellerDetails> {
    await this.assertAdministers(actor.user, tenantId);
    const details: SellerDetails = { ...input, vat_id: input.vat_id ?? '', email: input.email ?? '', phone: input.phone ?? '' };
    const before = await findSellerDetails(this.deps.db, tenantId);
    await upsertSellerDetails(this.deps.db, tenantId, details, this.deps.clock.now());
    // The audit lists only what changed (the issue of the audit log's rough edges).
    const changed = Object.fromEntries(
      (Object.keys(details) as (keyof SellerDetails)[]).filter((key) => before?.[key] !== details[key]).map((key) => [key, details[key]]),
    );
    await this.deps.audit.recordAction(actor, 'tenant.seller_details_set', tenantId, { type: 'tenant', id: tenantId }, changed);
    return details;
  }

  private async assertAdministers(viewer: UserRow, tenantId: number): Promise<void> {
    assertAdmin(viewer);
    if (!administers(viewer, tenantId) || !(await findTenantById(this.deps.db, tenantId))) throw new HttpError(404, 'http.not_found');
  }
}
