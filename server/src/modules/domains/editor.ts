import type { EventSink } from '../webhooks/events.ts';
import {
  DEFAULT_DOMAIN_SETTINGS,
  type Domain,
  type DomainCreatePayload,
  type DomainUpdatePayload,
  type WebSiteLogs,
} from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { createDefaultZone, sealedDkimKey } from '../dns/service.ts';
import { tenantZoneDefaults } from '../dns/queries.ts';
import { assertWithinPlans, planAllowance } from '../shop/plan-limits.ts';
import { administers } from '../tenants/scope.ts';
import { findUserById, type UserRow } from '../users/queries.ts';
import { displayDomainName, toStoredDomainName } from './names.ts';
import { presentDomain, settingsOf } from './present.ts';
import { nameHeld, releaseLapsedClaim } from './claims.ts';
import { newVerificationToken } from './proof.ts';
import {
  deleteDomainWithChildren,
  findDomainDetail,
  findSiteLogs,
  findWebServer,
  insertDomain,
  moveDomainToTenant,
  updateDomain,
} from './queries.ts';
import type { DomainDirectory } from './service.ts';

const parseTimestamp = (value: string | null | undefined): Date | null | undefined =>
  value === undefined ? undefined : value === null ? null : new Date(value);

/** Owner and expiry are the admins' to set: a customer's domain is their own, and expiry comes from renewals. */
function assertAdminFields(viewer: UserRow, input: { owner_id?: number | undefined; expire_at?: string | null | undefined }): void {
  if (viewer.role !== 'customer') return;
  if ((input.owner_id !== undefined && input.owner_id !== viewer.id) || input.expire_at !== undefined) {
    throw new HttpError(403, 'http.forbidden');
  }
}

/** Creating, changing and deleting domains; every domain is created with its default DNS zone and DKIM key. */
export class DomainEditor {
  private readonly deps: { db: Db; clock: Clock; audit: AuditService; directory: DomainDirectory; secrets: SecretBox; events?: EventSink };

  constructor(deps: DomainEditor['deps']) {
    this.deps = deps;
  }

  async detail(viewer: UserRow, id: number): Promise<Domain> {
    const row = await findDomainDetail(this.deps.db, viewer, id);
    if (!row) throw new HttpError(404, 'http.not_found');
    const now = this.deps.clock.now();
    // The disk the owner's plans include, beside what the site's folder holds.
    const allowance = await planAllowance(this.deps.db, row.owner_id, now);
    return presentDomain(row, now, allowance?.disk_mb ?? null);
  }

  /** The last lines of the site's access and error logs, for whoever may see the domain. */
  async logs(viewer: UserRow, id: number): Promise<WebSiteLogs> {
    const row = await findDomainDetail(this.deps.db, viewer, id);
    if (!row) throw new HttpError(404, 'http.not_found');
    const logs = await findSiteLogs(this.deps.db, id);
    return { access: logs?.access ?? [], error: logs?.error ?? [], updated_at: logs ? new Date(logs.updated_at).toISOString() : null };
  }

  async create(actor: Actor, input: DomainCreatePayload): Promise<Domain> {
    const { db, clock } = this.deps;
    assertAdminFields(actor.user, input);
    const name = toStoredDomainName(input.name);
    if (!name) throw fieldError('name', 'domain.invalid_name');
    const owner = await this.owner(actor.user, input.owner_id);
    const now = clock.now();
    if (await nameHeld(db, name, now)) throw fieldError('name', 'domain.taken');
    const zoneDefaults = await tenantZoneDefaults(db, owner.tenant_id);
    const dkim = await sealedDkimKey(this.deps.secrets, now);
    let domain;
    try {
      domain = await db.transaction().execute(async (trx) => {
        await assertWithinPlans(trx, actor.user, owner.id, { domains: 1 }, now, { domains: 'name' });
        await releaseLapsedClaim(trx, name, now);
        const created = await insertDomain(trx, {
          tenant_id: owner.tenant_id,
          owner_id: owner.id,
          name,
          expire_at: parseTimestamp(input.expire_at) ?? null,
          notes: input.notes ?? '',
          settings: { ...DEFAULT_DOMAIN_SETTINGS, ...input.settings },
          // A customer's own name is one they hold elsewhere: served once proven (proof.ts).
          // Admins vouch for the names they add; the shop registers its own (orders/provisioning.ts).
          verification_token: actor.user.role === 'customer' ? newVerificationToken() : null,
          created_at: now,
          updated_at: now,
        });
        await createDefaultZone(trx, created, zoneDefaults, now, dkim);
        await this.deps.events?.emit(trx, created.tenant_id, 'domain.created', {
          domain: { id: created.id, name: created.name, owner_id: created.owner_id },
        });
        return created;
      });
    } catch (error) {
      // Two creates of one name at once: the unique index lets one through, the other is told here.
      if (isUniqueViolation(error, 'domains_name')) throw fieldError('name', 'domain.taken');
      throw error;
    }
    await this.deps.audit.recordAction(
      actor,
      'domain.created',
      domain.tenant_id,
      { type: 'domain', id: domain.id },
      { name, owner_id: owner.id },
    );
    return this.detail(actor.user, domain.id);
  }

  async update(actor: Actor, id: number, input: DomainUpdatePayload): Promise<Domain> {
    const { db, clock } = this.deps;
    const domain = await this.deps.directory.visible(actor.user, id);
    assertAdminFields(actor.user, input);
    const owner =
      input.owner_id !== undefined && input.owner_id !== domain.owner_id ? await this.owner(actor.user, input.owner_id) : undefined;
    const changes: string[] = [];
    const values: Parameters<typeof updateDomain>[2] = { updated_at: clock.now() };
    if (owner) {
      values.owner_id = owner.id;
      values.tenant_id = owner.tenant_id;
      changes.push('owner');
    }
    const expireAt = parseTimestamp(input.expire_at);
    if (expireAt !== undefined) {
      values.expire_at = expireAt;
      // An admin who moves the expiry past now brings a lapsed domain back (billing: lapsed_at).
      if (expireAt === null || expireAt > clock.now()) values.lapsed_at = null;
      changes.push('expire_at');
    }
    if (input.server_id !== undefined && input.server_id !== domain.web_server_id) {
      // The route let only those who may choose servers (servers.manage) send it.
      const server = await findWebServer(db, input.server_id);
      if (!server) throw fieldError('server_id', 'server.unknown');
      values.web_server_id = server.id;
      changes.push('server');
    }
    if (input.notes !== undefined) {
      values.notes = input.notes;
      changes.push('notes');
    }
    if (input.auto_renew !== undefined && input.auto_renew !== domain.auto_renew) {
      values.auto_renew = input.auto_renew;
      changes.push('auto_renew');
    }
    if (input.settings !== undefined) {
      values.settings = { ...settingsOf(domain.settings), ...input.settings };
      changes.push('settings');
    }
    if (changes.length === 0) return this.detail(actor.user, domain.id);
    await db.transaction().execute(async (trx) => {
      await updateDomain(trx, domain.id, values);
      if (owner && owner.tenant_id !== domain.tenant_id) await moveDomainToTenant(trx, domain.id, owner.tenant_id);
    });
    await this.deps.audit.recordAction(
      actor,
      'domain.updated',
      owner?.tenant_id ?? domain.tenant_id,
      { type: 'domain', id: domain.id },
      {
        name: domain.name,
        changed: changes.join(','),
        ...(owner ? { owner_id: owner.id, previous_owner_id: domain.owner_id } : {}),
        ...(expireAt !== undefined ? { expire_at: expireAt?.toISOString() ?? null } : {}),
      },
    );
    return this.detail(actor.user, domain.id);
  }

  /** Deletes the domain with its users, records and zone in one transaction; `confirm` repeats its name. */
  async remove(actor: Actor, id: number, confirm: string): Promise<string> {
    const domain = await this.deps.directory.visible(actor.user, id);
    const typed = confirm.trim().toLowerCase().replace(/\.$/, '');
    if (typed !== domain.name && typed !== displayDomainName(domain.name).toLowerCase())
      throw fieldError('confirm', 'domain.confirm_mismatch');
    const deleted = await this.deps.db.transaction().execute((trx) => deleteDomainWithChildren(trx, domain.id));
    if (deleted === 0) throw new HttpError(404, 'http.not_found');
    await this.deps.audit.recordAction(
      actor,
      'domain.deleted',
      domain.tenant_id,
      { type: 'domain', id: domain.id },
      { name: domain.name, owner_id: domain.owner_id },
    );
    return domain.name;
  }

  /** The owner an admin picks: a user they administer. An unknown and a foreign id read the same. */
  private async owner(viewer: UserRow, ownerId: number | undefined): Promise<UserRow> {
    if (ownerId === undefined || ownerId === viewer.id) return viewer;
    const owner = await findUserById(this.deps.db, ownerId);
    if (!owner || !administers(viewer, owner.tenant_id) || (viewer.role !== 'super_admin' && owner.role === 'super_admin')) {
      throw fieldError('owner_id', 'domain.owner_unknown');
    }
    return owner;
  }
}
