import type { Autoreply, autoreplyPayloadSchema } from '@berth/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { DomainDirectory } from '../domains/service.ts';
import { iso } from '../tenants/scope.ts';
import type { UserRow } from '../users/queries.ts';
import { findAutoreply, findDomainUser, saveAutoreply } from './queries.ts';
import { autoreplyScript } from './sieve.ts';

type AutoreplyInput = z.output<typeof autoreplyPayloadSchema>;

const OFF: Autoreply = { enabled: false, subject: '', body: '', interval_days: 1, starts_on: null, ends_on: null, updated_at: null };

/**
 * A mailbox's autoresponder ("out of office"), as cPanel and Plesk offer it: a subject and text
 * sent back once per sender per interval, optionally only between two dates. Saved here, run by
 * Dovecot's Sieve at delivery (migration 0020_mail_autoreplies, deploy/dovecot).
 */
export class MailboxAutoreplies {
  private readonly deps: { db: Db; clock: Clock; audit: AuditService; domains: DomainDirectory };

  constructor(deps: MailboxAutoreplies['deps']) {
    this.deps = deps;
  }

  async get(viewer: UserRow, domainId: number, id: number): Promise<Autoreply> {
    const account = await this.account(viewer, domainId, id);
    const row = await findAutoreply(this.deps.db, account.id);
    return row ? { ...row, updated_at: iso(row.updated_at) } : OFF;
  }

  async save(actor: Actor, domainId: number, id: number, input: AutoreplyInput): Promise<{ uid: string; autoreply: Autoreply }> {
    const account = await this.account(actor.user, domainId, id);
    const fields: Record<string, { key: 'validation.required' | 'autoreply.ends_before_start' }[]> = {};
    // A reply switched off may keep an empty text; one switched on must say something.
    if (input.enabled && input.subject === '') fields.subject = [{ key: 'validation.required' }];
    if (input.enabled && input.body.trim() === '') fields.body = [{ key: 'validation.required' }];
    if (input.starts_on && input.ends_on && input.ends_on < input.starts_on) fields.ends_on = [{ key: 'autoreply.ends_before_start' }];
    if (Object.keys(fields).length > 0) throw new HttpError(422, 'validation.failed', { fields });
    const body = input.body.replaceAll('\r\n', '\n');
    await saveAutoreply(this.deps.db, {
      domain_user_id: account.id,
      enabled: input.enabled,
      subject: input.subject,
      body,
      interval_days: input.interval_days,
      starts_on: input.starts_on,
      ends_on: input.ends_on,
      script: autoreplyScript({
        subject: input.subject,
        body,
        intervalDays: input.interval_days,
        startsOn: input.starts_on,
        endsOn: input.ends_on,
      }),
      updated_at: this.deps.clock.now(),
    });
    await this.deps.audit.recordAction(
      actor,
      'domain_user.autoreply_changed',
      account.tenant_id,
      { type: 'domain_user', id: account.id },
      { uid: account.uid, domain_id: account.domain_id, enabled: input.enabled },
    );
    return { uid: account.uid, autoreply: await this.get(actor.user, domainId, id) };
  }

  private async account(viewer: UserRow, domainId: number, id: number) {
    const domain = await this.deps.domains.visible(viewer, domainId);
    const account = await findDomainUser(this.deps.db, domain.id, id);
    if (!account) throw new HttpError(404, 'http.not_found');
    return account;
  }
}
