import { MAIL_LOG_DAYS, type DomainUser, type MailLogEntry, type SpamFilter } from '@berth/contracts';
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
import { displayDomainName } from '../domains/names.ts';
import { assertWithinPlans, lockForPlanCheck } from '../shop/plan-limits.ts';
import type { DomainDirectory } from '../domains/service.ts';
import { iso } from '../tenants/scope.ts';
import type { UserRow } from '../users/queries.ts';
import {
  createDomainUser,
  deleteDomainUser,
  enabledAutoreplies,
  findDomainUser,
  findDomainUserByUid,
  listDomainUsers,
  listMailLog,
  updateDomainUser,
} from './queries.ts';

/** A mailbox local part that also works as an FTP login: no quoting, no dot at either end or twice. */
const LOCAL_PART = /^[a-z0-9](?:[a-z0-9._+-]{0,62}[a-z0-9])?$/;
const SORT = 'uid';
/** The newest entries a mail log shows (a week of a busy mailbox is more than a page can hold). */
const MAIL_LOG_LIMIT = 500;

type AccountRow = NonNullable<Awaited<ReturnType<typeof findDomainUser>>>;

const present = (row: Omit<AccountRow, 'tenant_id'>): DomainUser => ({
  id: row.id,
  domain_id: row.domain_id,
  uid: row.uid,
  quota_mb: row.quota_mb,
  enabled: row.enabled,
  spam_filter: row.spam_filter,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** The full uid of a new account: `info` or `info@<this domain>` (in either spelling of an IDN). */
export function uidFor(input: string, domainName: string): string | undefined {
  const lowered = input.trim().toLowerCase();
  const at = lowered.lastIndexOf('@');
  const local = at === -1 ? lowered : lowered.slice(0, at);
  if (at !== -1) {
    const host = lowered.slice(at + 1).replace(/\.$/, '');
    if (host !== domainName && host !== displayDomainName(domainName).toLowerCase()) return undefined;
  }
  return LOCAL_PART.test(local) && !local.includes('..') ? `${local}@${domainName}` : undefined;
}

/** The mail/FTP accounts of a domain, managed by its owner and the admins who see it. */
export class DomainUserAccounts {
  private readonly deps: { db: Db; clock: Clock; hasher: PasswordHasher; audit: AuditService; domains: DomainDirectory };

  constructor(deps: DomainUserAccounts['deps']) {
    this.deps = deps;
  }

  async list(viewer: UserRow, domainId: number, page: { cursor?: string | undefined; limit: number }) {
    const domain = await this.deps.domains.visible(viewer, domainId);
    const after = page.cursor ? decodeCursor(page.cursor, SORT, z.tuple([z.string(), z.number().int()])) : undefined;
    const rows = await listDomainUsers(this.deps.db, domain.id, { after, limit: page.limit + 1 });
    const result = pageOfRows(rows, page.limit, (row) => encodeCursor(SORT, [row.uid, row.id]));
    const replying = await enabledAutoreplies(
      this.deps.db,
      result.rows.map((row) => row.id),
    );
    return { data: result.rows.map((row) => ({ ...present(row), autoreply: replying.has(row.id) })), next_cursor: result.nextCursor };
  }

  async get(viewer: UserRow, domainId: number, id: number): Promise<DomainUser> {
    const domain = await this.deps.domains.visible(viewer, domainId);
    const row = await this.find(domain.id, id);
    return { ...present(row), autoreply: (await enabledAutoreplies(this.deps.db, [row.id])).has(row.id) };
  }

  async create(
    actor: Actor,
    domainId: number,
    input: { uid: string; password: string; password_confirmation: string; quota_mb: number; enabled: boolean; spam_filter: SpamFilter },
  ): Promise<DomainUser> {
    const { db, clock, hasher } = this.deps;
    const domain = await this.deps.domains.visible(actor.user, domainId);
    const uid = uidFor(input.uid, domain.name);
    if (!uid) throw fieldError('uid', 'domain_user.invalid_uid', { domain: displayDomainName(domain.name) });
    assertNewPassword(input.password, input.password_confirmation, [
      uid,
      domain.name,
      ...(await tenantPasswordContext(db, domain.tenant_id)),
    ]);
    if (await findDomainUserByUid(db, uid)) throw fieldError('uid', 'domain_user.taken');
    const now = clock.now();
    const passwordHash = await hasher.hash(input.password);
    let row;
    try {
      row = await db.transaction().execute(async (trx) => {
        await assertWithinPlans(trx, actor.user, domain.owner_id, { mailboxes: 1, disk_mb: input.quota_mb }, now, {});
        return createDomainUser(trx, {
          tenant_id: domain.tenant_id,
          domain_id: domain.id,
          uid,
          password_hash: passwordHash,
          quota_mb: input.quota_mb,
          enabled: input.enabled,
          spam_filter: input.spam_filter,
          created_at: now,
          updated_at: now,
        });
      });
    } catch (error) {
      if (isUniqueViolation(error, 'domain_users_uid')) throw fieldError('uid', 'domain_user.taken');
      throw error;
    }
    await this.audit(actor, 'domain_user.created', domain.tenant_id, row, {
      quota_mb: row.quota_mb,
      enabled: row.enabled,
      spam_filter: row.spam_filter,
    });
    return present(row);
  }

  async update(
    actor: Actor,
    domainId: number,
    id: number,
    input: { quota_mb?: number | undefined; enabled?: boolean | undefined; spam_filter?: SpamFilter | undefined },
  ): Promise<DomainUser> {
    const domain = await this.deps.domains.visible(actor.user, domainId);
    const now = this.deps.clock.now();
    const row = await this.deps.db.transaction().execute(async (trx) => {
      // The quota it grows from is read under the plan lock: read before it, a change that won the
      // lock meanwhile would be missed (and the growth miscounted).
      if (input.quota_mb !== undefined) await lockForPlanCheck(trx, actor.user, domain.owner_id);
      const current = await this.find(domain.id, id, trx);
      // A larger quota takes more of the plans' disk; a smaller one always fits.
      const growth = input.quota_mb !== undefined ? input.quota_mb - current.quota_mb : 0;
      if (growth > 0) await assertWithinPlans(trx, actor.user, domain.owner_id, { disk_mb: growth }, now, {});
      return updateDomainUser(trx, domain.id, id, {
        ...(input.quota_mb !== undefined ? { quota_mb: input.quota_mb } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...(input.spam_filter !== undefined ? { spam_filter: input.spam_filter } : {}),
        updated_at: now,
      });
    });
    if (!row) throw new HttpError(404, 'http.not_found');
    await this.audit(actor, 'domain_user.updated', domain.tenant_id, row, {
      ...(input.quota_mb !== undefined ? { quota_mb: input.quota_mb } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      ...(input.spam_filter !== undefined ? { spam_filter: input.spam_filter } : {}),
    });
    return present(row);
  }

  /** The owner or an admin sets a new password (the account's user changes it at /change-password). */
  async resetPassword(
    actor: Actor,
    domainId: number,
    id: number,
    input: { password: string; password_confirmation: string },
  ): Promise<DomainUser> {
    const domain = await this.deps.domains.visible(actor.user, domainId);
    const account = await this.find(domain.id, id);
    assertNewPassword(input.password, input.password_confirmation, [
      account.uid,
      domain.name,
      ...(await tenantPasswordContext(this.deps.db, domain.tenant_id)),
    ]);
    const row = await updateDomainUser(this.deps.db, domain.id, id, {
      password_hash: await this.deps.hasher.hash(input.password),
      updated_at: this.deps.clock.now(),
    });
    if (!row) throw new HttpError(404, 'http.not_found');
    await this.audit(actor, 'domain_user.password_reset', domain.tenant_id, row);
    return present(row);
  }

  /** What the mailbox received and sent in the last MAIL_LOG_DAYS days, newest first. */
  async mailLog(viewer: UserRow, domainId: number, id: number): Promise<MailLogEntry[]> {
    const domain = await this.deps.domains.visible(viewer, domainId);
    const account = await this.find(domain.id, id);
    const since = new Date(this.deps.clock.now().getTime() - MAIL_LOG_DAYS * 86_400_000);
    const rows = await listMailLog(this.deps.db, account.id, since, MAIL_LOG_LIMIT);
    return rows.map((row) => ({ ...row, at: iso(row.at) }));
  }

  async remove(actor: Actor, domainId: number, id: number): Promise<string> {
    const domain = await this.deps.domains.visible(actor.user, domainId);
    const account = await this.find(domain.id, id);
    if ((await deleteDomainUser(this.deps.db, domain.id, id)) === 0) throw new HttpError(404, 'http.not_found');
    await this.audit(actor, 'domain_user.deleted', domain.tenant_id, account);
    return account.uid;
  }

  private async find(domainId: number, id: number, db: Db = this.deps.db): Promise<AccountRow> {
    const row = await findDomainUser(db, domainId, id);
    if (!row) throw new HttpError(404, 'http.not_found');
    return row;
  }

  private async audit(
    actor: Actor,
    action: 'domain_user.created' | 'domain_user.updated' | 'domain_user.password_reset' | 'domain_user.deleted',
    tenantId: number,
    row: { id: number; uid: string; domain_id: number },
    data: Record<string, string | number | boolean> = {},
  ) {
    await this.deps.audit.recordAction(
      actor,
      action,
      tenantId,
      { type: 'domain_user', id: row.id },
      { uid: row.uid, domain_id: row.domain_id, ...data },
    );
  }
}
