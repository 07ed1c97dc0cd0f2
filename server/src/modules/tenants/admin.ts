import type { TenantDetail, TenantLogoKind } from '@berth/contracts';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/connection.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { decodeCursor, encodeCursor, pageOfRows } from '../../db/keyset.ts';
import type { TenantsTable } from '../../db/schema.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { changedFields } from '../audit/changes.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { signOutEverywhere } from '../customers/sign-out.ts';
import type { RealtimeHub } from '../realtime/hub.ts';
import type { SessionService } from '../sessions/service.ts';
import { findUserById, type UserRow } from '../users/queries.ts';
import { logoUrl, normaliseLogo } from './logo.ts';
import {
  deleteTenantLogo,
  findTenantById,
  findTenantLogo,
  hostsOwnedElsewhere,
  insertTenant,
  listAdminsOfTenants,
  listHostsOfTenants,
  listTenantPage,
  replaceTenantHosts,
  setUserRole,
  updateTenant,
  upsertTenantLogo,
} from './queries.ts';
import { assertSuperAdmin, displayNameOf, iso } from './scope.ts';
import { TENANTS_CHANGED } from './service.ts';

export interface TenantInput {
  title?: string | undefined;
  hosts?: string[] | undefined;
  host_purchases?: string | null | undefined;
  name_servers?: string[] | undefined;
  dns_secondaries?: string[] | undefined;
  hosting_ipv4?: string | null | undefined;
  hosting_ipv6?: string | null | undefined;
  default_language?: 'en' | 'de' | 'cs' | undefined;
  public_url?: string | null | undefined;
}

const SORT = 'id';
const unique = (list: string[]): string[] => [...new Set(list)];

/** Tenants (brands/resellers) as super admins run them: settings, host names, logos and host admins. */
export class TenantAdministration {
  private readonly deps: {
    db: Db;
    clock: Clock;
    audit: AuditService;
    sessions: SessionService;
    realtime: Pick<RealtimeHub, 'endSession' | 'announceChange'>;
  };

  constructor(deps: TenantAdministration['deps']) {
    this.deps = deps;
  }

  async list(viewer: UserRow, page: { cursor?: string | undefined; limit: number }) {
    assertSuperAdmin(viewer);
    const afterId = page.cursor ? decodeCursor(page.cursor, SORT, z.tuple([z.number().int()]))[0] : undefined;
    const rows = await listTenantPage(this.deps.db, { afterId, limit: page.limit + 1 });
    const result = pageOfRows(rows, page.limit, (row) => encodeCursor(SORT, [row.id]));
    return { data: await this.present(result.rows), next_cursor: result.nextCursor };
  }

  async get(viewer: UserRow, id: number): Promise<TenantDetail> {
    assertSuperAdmin(viewer);
    const [detail] = await this.present([await this.find(id)]);
    return detail as TenantDetail;
  }

  async create(actor: Actor, input: Required<TenantInput> & { hosts: string[]; title: string }): Promise<TenantDetail> {
    assertSuperAdmin(actor.user);
    const hosts = unique(input.hosts);
    await this.assertHostsFree(hosts, null);
    const tenant = await this.withHostRace(() =>
      this.deps.db.transaction().execute(async (trx) => {
        const row = await insertTenant(trx, { title: input.title, host_purchases: input.host_purchases, public_url: input.public_url });
        await updateTenant(trx, row.id, {
          default_language: input.default_language,
          name_servers: unique(input.name_servers),
          dns_secondaries: unique(input.dns_secondaries),
          hosting_ipv4: input.hosting_ipv4,
          hosting_ipv6: input.hosting_ipv6,
        });
        await replaceTenantHosts(trx, row.id, hosts);
        return row;
      }),
    );
    await this.deps.realtime.announceChange(TENANTS_CHANGED);
    await this.deps.audit.recordAction(
      actor,
      'tenant.created',
      tenant.id,
      { type: 'tenant', id: tenant.id },
      { title: tenant.title, hosts: hosts.join(',') },
    );
    return this.get(actor.user, tenant.id);
  }

  async update(actor: Actor, id: number, input: TenantInput): Promise<TenantDetail> {
    const before = await this.get(actor.user, id);
    const sent = Object.keys(input).filter((key) => input[key as keyof TenantInput] !== undefined);
    if (sent.length === 0) return before;
    const hosts = input.hosts ? unique(input.hosts) : undefined;
    if (hosts) await this.assertHostsFree(hosts, before.id);
    await this.withHostRace(() =>
      this.deps.db.transaction().execute(async (trx) => {
        await updateTenant(trx, before.id, {
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.host_purchases !== undefined ? { host_purchases: input.host_purchases } : {}),
          ...(input.default_language !== undefined ? { default_language: input.default_language } : {}),
          ...(input.public_url !== undefined ? { public_url: input.public_url } : {}),
          ...(input.name_servers !== undefined ? { name_servers: unique(input.name_servers) } : {}),
          ...(input.dns_secondaries !== undefined ? { dns_secondaries: unique(input.dns_secondaries) } : {}),
          ...(input.hosting_ipv4 !== undefined ? { hosting_ipv4: input.hosting_ipv4 } : {}),
          ...(input.hosting_ipv6 !== undefined ? { hosting_ipv6: input.hosting_ipv6 } : {}),
        });
        if (hosts) await replaceTenantHosts(trx, before.id, hosts);
      }),
    );
    await this.deps.realtime.announceChange(TENANTS_CHANGED);
    const after = await this.get(actor.user, before.id);
    // The edit form sends every field: the log names those whose value changed.
    const asSent = (detail: TenantDetail) => ({ ...detail, host_purchases: detail.config.host_purchases });
    const changed = changedFields(sent, asSent(before), asSent(after));
    if (changed) await this.deps.audit.recordAction(actor, 'tenant.updated', before.id, { type: 'tenant', id: before.id }, { changed });
    return after;
  }

  async uploadLogo(actor: Actor, id: number, kind: TenantLogoKind, input: Buffer): Promise<TenantDetail> {
    assertSuperAdmin(actor.user);
    const tenant = await this.find(id);
    const { image, contentType } = await normaliseLogo(input);
    const now = this.deps.clock.now();
    await this.deps.db.transaction().execute(async (trx) => {
      await upsertTenantLogo(trx, { tenant_id: tenant.id, kind, image, content_type: contentType, updated_at: now });
      await updateTenant(trx, tenant.id, { [kind]: logoUrl(kind, now) });
    });
    await this.deps.realtime.announceChange(TENANTS_CHANGED);
    await this.deps.audit.recordAction(
      actor,
      'tenant.logo_uploaded',
      tenant.id,
      { type: 'tenant', id: tenant.id },
      { kind, bytes: image.length },
    );
    return this.get(actor.user, tenant.id);
  }

  async removeLogo(actor: Actor, id: number, kind: TenantLogoKind): Promise<TenantDetail> {
    assertSuperAdmin(actor.user);
    const tenant = await this.find(id);
    await this.deps.db.transaction().execute(async (trx) => {
      await deleteTenantLogo(trx, tenant.id, kind);
      await updateTenant(trx, tenant.id, { [kind]: null });
    });
    await this.deps.realtime.announceChange(TENANTS_CHANGED);
    await this.deps.audit.recordAction(actor, 'tenant.logo_removed', tenant.id, { type: 'tenant', id: tenant.id }, { kind });
    return this.get(actor.user, tenant.id);
  }

  /** The logo of the request's own tenant, for everyone (the login screen shows it). */
  publicLogo(tenantId: number, kind: TenantLogoKind) {
    return findTenantLogo(this.deps.db, tenantId, kind);
  }

  /** A stored logo of any tenant, for the super admin's preview. */
  async logo(viewer: UserRow, id: number, kind: TenantLogoKind) {
    assertSuperAdmin(viewer);
    const logo = await findTenantLogo(this.deps.db, (await this.find(id)).id, kind);
    if (!logo) throw new HttpError(404, 'http.not_found');
    return logo;
  }

  /**
   * Makes a user of the tenant its host admin, or back a customer. Their sessions end: a role
   * change is a privilege change, and the next login starts with the new role.
   */
  async setAdmin(actor: Actor, tenantId: number, userId: number, admin: boolean): Promise<TenantDetail> {
    assertSuperAdmin(actor.user);
    const tenant = await this.find(tenantId);
    const user = await findUserById(this.deps.db, userId);
    if (!user || user.tenant_id !== tenant.id || user.role === 'super_admin') throw new HttpError(404, 'http.not_found');
    const [from, to] = admin ? (['customer', 'host_admin'] as const) : (['host_admin', 'customer'] as const);
    if (user.role === from) {
      await setUserRole(this.deps.db, user.id, tenant.id, from, to, this.deps.clock.now());
      await signOutEverywhere(this.deps.sessions, this.deps.realtime, user.id);
      await this.deps.audit.recordAction(
        actor,
        admin ? 'tenant.admin_assigned' : 'tenant.admin_removed',
        tenant.id,
        { type: 'user', id: user.id },
        { email: user.email },
      );
    }
    return this.get(actor.user, tenant.id);
  }

  private async find(id: number): Promise<Selectable<TenantsTable>> {
    const tenant = await findTenantById(this.deps.db, id);
    if (!tenant) throw new HttpError(404, 'http.not_found');
    return tenant;
  }

  private async assertHostsFree(hosts: string[], tenantId: number | null): Promise<void> {
    const taken = await hostsOwnedElsewhere(this.deps.db, hosts, tenantId);
    if (taken.length) throw fieldError('hosts', 'tenant.host_taken', { host: taken.map((t) => t.host).join(', ') });
  }

  private async withHostRace<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error, 'tenant_hosts_pkey')) throw fieldError('hosts', 'tenant.host_taken', { host: '' });
      throw error;
    }
  }

  private async present(rows: Selectable<TenantsTable>[]): Promise<TenantDetail[]> {
    const ids = rows.map((row) => row.id);
    const [hosts, admins] = await Promise.all([listHostsOfTenants(this.deps.db, ids), listAdminsOfTenants(this.deps.db, ids)]);
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      hosts: hosts.filter((h) => h.tenant_id === row.id).map((h) => h.host),
      config: { admin_logo: row.admin_logo, admin_logo_footer: row.admin_logo_footer, host_purchases: row.host_purchases },
      name_servers: row.name_servers,
      dns_secondaries: row.dns_secondaries,
      hosting_ipv4: row.hosting_ipv4,
      hosting_ipv6: row.hosting_ipv6,
      default_language: row.default_language,
      public_url: row.public_url,
      admins: admins.filter((a) => a.tenant_id === row.id).map((a) => ({ id: a.id, email: a.email, display_name: displayNameOf(a) })),
      created_at: iso(row.created_at),
    }));
  }
}
