import type { EventSink } from '../webhooks/events.ts';
import type { Customer } from '@berth/contracts';
import { z } from 'zod';
import type { Db } from '../../db/connection.ts';
import { tenantPasswordContext } from '../tenants/service.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { decodeCursor, encodeCursor, pageOfRows } from '../../db/keyset.ts';
import { fieldError, HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PasswordHasher } from '../../lib/password.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { assertNewPassword } from '../auth/new-password.ts';
import type { SecurityNotifier } from '../auth/notifier.ts';
import type { RealtimeHub } from '../realtime/hub.ts';
import type { SessionService } from '../sessions/service.ts';
import { administers, listTenantScope, assertAdmin, displayNameOf, iso, isoOrNull } from '../tenants/scope.ts';
import type { TenantResolver, ResolvedTenant } from '../tenants/service.ts';
import { findUserById, insertUser, type UserRow } from '../users/queries.ts';
import {
  deleteCustomerWithDomains,
  emailTakenInTenant,
  findCustomer,
  listCustomerPage,
  resetTwoFactor,
  setCustomerLocked,
  updateCustomer,
  type CustomerRow,
} from './queries.ts';
import { signOutEverywhere } from './sign-out.ts';
import { PAGE_SIZE_MAX } from '@berth/contracts';
import { allPages, csvCell, csvDocument } from '../../lib/csv.ts';
import { generatePassword } from '../../lib/password.ts';

const SORT = 'email';

export function presentCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    email: row.email,
    contact: { given_name: row.given_name, sn: row.sn, phone: row.phones, display_name: displayNameOf(row) },
    language: row.language,
    locked: row.locked_at !== null,
    locked_at: isoOrNull(row.locked_at),
    google2fa_enabled: row.google2fa_enabled,
    email_verified: row.email_verified_at !== null,
    domains: Number(row.domain_count ?? 0),
    created_at: iso(row.created_at),
  };
}

export interface CustomerCreateInput {
  email: string;
  contact: { given_name: string; sn: string; phone?: string[] | undefined };
  /** Without one, the customer gets an invitation to choose their own. */
  password?: string | undefined;
  language: 'en' | 'de' | 'cs';
  tenant_id?: number | undefined;
}

export interface CustomerUpdateInput {
  email?: string | undefined;
  contact?: { given_name?: string | undefined; sn?: string | undefined; phone?: string[] | undefined } | undefined;
  language?: 'en' | 'de' | 'cs' | undefined;
}

/** Host admins manage their tenant's customers, super admins everyone's; customers never reach this. */
export class CustomerService {
  private readonly deps: {
    db: Db;
    clock: Clock;
    hasher: PasswordHasher;
    audit: AuditService;
    sessions: SessionService;
    realtime: Pick<RealtimeHub, 'endSession'>;
    tenants: TenantResolver;
    notifier: SecurityNotifier;
    /** The welcome mail with a link to choose a password (password/service.ts). */
    invitations: { invite(user: UserRow, tenant: ResolvedTenant, inviter: UserRow): Promise<void> };
    events?: EventSink;
  };

  constructor(deps: CustomerService['deps']) {
    this.deps = deps;
  }

  async list(
    viewer: UserRow,
    query: {
      cursor?: string | undefined;
      limit: number;
      q?: string | undefined;
      tenant_id?: number | undefined;
      locked?: 'true' | 'false' | undefined;
    },
  ) {
    assertAdmin(viewer);
    const after = query.cursor ? decodeCursor(query.cursor, SORT, z.tuple([z.string(), z.number().int()])) : undefined;
    const rows = await listCustomerPage(this.deps.db, {
      tenantId: await listTenantScope(this.deps.db, viewer, query.tenant_id),
      q: query.q || undefined,
      locked: query.locked === undefined ? undefined : query.locked === 'true',
      after,
      limit: query.limit + 1,
    });
    const page = pageOfRows(rows, query.limit, (row) => encodeCursor(SORT, [row.email.toLowerCase(), row.id]));
    return { data: page.rows.map(presentCustomer), next_cursor: page.nextCursor };
  }

  /** The list as CSV (GET /api/system/customers/export.csv): same scope and filters, every page. */
  async exportCsv(
    viewer: UserRow,
    query: { q?: string | undefined; tenant_id?: number | undefined; locked?: 'true' | 'false' | undefined },
  ) {
    const rows = await allPages((cursor) => this.list(viewer, { ...query, cursor, limit: PAGE_SIZE_MAX }));
    return csvDocument(
      ['id', 'email', 'given_name', 'surname', 'phone', 'language', 'domains', 'two_factor', 'locked', 'email_verified', 'created_at'],
      rows.map((customer) => [
        String(customer.id),
        csvCell(customer.email),
        csvCell(customer.contact.given_name),
        csvCell(customer.contact.sn),
        csvCell(customer.contact.phone.join('; ')),
        customer.language,
        String(customer.domains),
        customer.google2fa_enabled ? 'yes' : 'no',
        customer.locked ? 'yes' : 'no',
        customer.email_verified ? 'yes' : 'no',
        customer.created_at,
      ]),
    );
  }

  async get(viewer: UserRow, id: number): Promise<Customer> {
    return presentCustomer(await this.visible(viewer, id));
  }

  async create(actor: Actor, input: CustomerCreateInput): Promise<Customer> {
    const { db, clock, hasher } = this.deps;
    assertAdmin(actor.user);
    const tenantId = await this.tenantForNewCustomer(actor.user, input.tenant_id);
    if (input.password !== undefined) {
      const names = [input.email, input.contact?.given_name ?? '', input.contact?.sn ?? ''];
      assertNewPassword(input.password, input.password, [...names, ...(await tenantPasswordContext(db, tenantId))]);
    }
    if (await emailTakenInTenant(db, tenantId, input.email, null)) throw fieldError('email', 'registration.email_taken');
    // An invited customer's password is a random one nobody knows until they choose their own.
    const password = input.password ?? generatePassword();
    let user: UserRow;
    try {
      user = await insertUser(db, {
        tenant_id: tenantId,
        email: input.email,
        password_hash: await hasher.hash(password),
        role: 'customer',
        given_name: input.contact.given_name,
        sn: input.contact.sn,
        phones: input.contact.phone ?? [],
        language: input.language,
        email_verified_at: clock.now(),
      });
    } catch (error) {
      if (isUniqueViolation(error, 'users_tenant_email')) throw fieldError('email', 'registration.email_taken');
      throw error;
    }
    await this.deps.audit.recordAction(
      actor,
      'customer.created',
      tenantId,
      { type: 'user', id: user.id },
      { email: user.email, invited: input.password === undefined },
    );
    await this.deps.events?.emit(db, tenantId, 'customer.created', {
      customer: { id: user.id, email: user.email, name: [user.given_name, user.sn].filter(Boolean).join(' ') },
    });
    if (input.password === undefined) {
      const tenant = await this.deps.tenants.byId(tenantId);
      if (tenant) await this.deps.invitations.invite(user, tenant, actor.user);
    }
    return this.get(actor.user, user.id);
  }

  async update(actor: Actor, id: number, input: CustomerUpdateInput): Promise<Customer> {
    const customer = await this.visible(actor.user, id);
    if (input.email !== undefined && (await emailTakenInTenant(this.deps.db, customer.tenant_id, input.email, customer.id))) {
      throw fieldError('email', 'registration.email_taken');
    }
    const values = {
      ...(input.email !== undefined ? { email: input.email } : {}),
      ...(input.contact?.given_name !== undefined ? { given_name: input.contact.given_name } : {}),
      ...(input.contact?.sn !== undefined ? { sn: input.contact.sn } : {}),
      ...(input.contact?.phone !== undefined ? { phones: input.contact.phone } : {}),
      ...(input.language !== undefined ? { language: input.language } : {}),
    };
    if (Object.keys(values).length === 0) return presentCustomer(customer);
    try {
      await updateCustomer(this.deps.db, customer.id, { ...values, updated_at: this.deps.clock.now() });
    } catch (error) {
      if (isUniqueViolation(error, 'users_tenant_email')) throw fieldError('email', 'registration.email_taken');
      throw error;
    }
    await this.deps.audit.recordAction(
      actor,
      'customer.updated',
      customer.tenant_id,
      { type: 'user', id: customer.id },
      {
        changed: Object.keys(values).join(','),
        ...(input.email !== undefined && input.email !== customer.email ? { previous_email: customer.email, email: input.email } : {}),
      },
    );
    return this.get(actor.user, customer.id);
  }

  /** A locked customer cannot log in, and every session they have ends now. */
  async setLocked(actor: Actor, id: number, locked: boolean): Promise<Customer> {
    const customer = await this.visible(actor.user, id);
    const now = this.deps.clock.now();
    if (locked !== (customer.locked_at !== null)) {
      await setCustomerLocked(this.deps.db, customer.id, locked ? now : null, now);
      if (locked) await signOutEverywhere(this.deps.sessions, this.deps.realtime, customer.id);
      await this.deps.audit.recordAction(
        actor,
        locked ? 'customer.locked' : 'customer.unlocked',
        customer.tenant_id,
        { type: 'user', id: customer.id },
        { email: customer.email },
      );
    }
    return this.get(actor.user, customer.id);
  }

  /** For a customer who lost their authenticator and recovery codes; they are told by e-mail. */
  async resetTwoFactor(actor: Actor, id: number): Promise<Customer> {
    const customer = await this.visible(actor.user, id);
    await this.deps.db.transaction().execute((trx) => resetTwoFactor(trx, customer.id, this.deps.clock.now()));
    await this.deps.audit.recordAction(
      actor,
      'customer.2fa_reset',
      customer.tenant_id,
      { type: 'user', id: customer.id },
      {
        email: customer.email,
        was_enabled: customer.google2fa_enabled,
      },
    );
    const [user, tenant] = await Promise.all([findUserById(this.deps.db, customer.id), this.deps.tenants.byId(customer.tenant_id)]);
    if (user && tenant && customer.google2fa_enabled)
      await this.deps.notifier.notify(user, 'two_factor_disabled', { ip: actor.ip, tenant });
    return this.get(actor.user, customer.id);
  }

  /** Deletes the customer with all their domains (and those domains' users and records); `confirm` repeats the e-mail. */
  async remove(actor: Actor, id: number, confirm: string): Promise<string> {
    const customer = await this.visible(actor.user, id);
    if (confirm.trim().toLowerCase() !== customer.email.toLowerCase()) throw fieldError('confirm', 'customer.confirm_mismatch');
    const { domains } = await this.deps.db.transaction().execute((trx) => deleteCustomerWithDomains(trx, customer.id));
    await this.deps.audit.recordAction(
      actor,
      'customer.deleted',
      customer.tenant_id,
      { type: 'user', id: customer.id },
      { email: customer.email, domains },
    );
    return customer.email;
  }

  /** A customer the viewer administers; anything else (other tenants, admins, unknown ids) is 404. */
  private async visible(viewer: UserRow, id: number): Promise<CustomerRow> {
    assertAdmin(viewer);
    const customer = await findCustomer(this.deps.db, id);
    if (!customer || !administers(viewer, customer.tenant_id)) throw new HttpError(404, 'http.not_found');
    return customer;
  }

  private async tenantForNewCustomer(viewer: UserRow, requested: number | undefined): Promise<number> {
    if (requested === undefined || requested === viewer.tenant_id) return viewer.tenant_id;
    if (viewer.role !== 'super_admin' || !(await this.deps.tenants.byId(requested)))
      throw fieldError('tenant_id', 'customer.tenant_unknown');
    return requested;
  }
}
