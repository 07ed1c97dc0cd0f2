import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection.ts';
import { translate } from '../../i18n/messages.ts';
import type { Clock } from '../../lib/clock.ts';
import { startPeriodic } from '../../lib/periodic.ts';
import { insertNotification } from '../notifications/queries.ts';
import type { LanguageCode, NotificationEvent } from '@berth/contracts';
import { languageOf } from '../shop/language.ts';
import { claimDomainTold, claimTold, listUntoldOverDomainLimits, listUntoldOverLimits, usersToTell } from './queries.ts';
import { displayDomainName } from '../domains/names.ts';

/** How often the server looks for mailboxes that went over their limit (a minute: the notice is not urgent to the second). */
export const MAIL_LIMITS_EVERY_MS = 60_000;

/**
 * Outbound limits (migration 0040_mail_send_limits): the mail agent defers what a mailbox sends
 * past its hourly limit, and what a domain sends and forwards past its own
 * (migration 0044_mail_domain_limits); this tells the mailbox's owner and the tenant's admins, with a stored
 * notification each, once per hour window (a stolen password sending spam is what it usually is).
 */
export class MailSendLimits {
  private readonly deps: { db: Db; clock: Clock; realtime: { notify(userId: number, event: NotificationEvent): void } };

  constructor(deps: MailSendLimits['deps']) {
    this.deps = deps;
  }

  /** Tells of every mailbox and domain over its limit not told yet; answers how many of them. */
  async runOnce(): Promise<number> {
    let told = 0;
    for (const over of await listUntoldOverLimits(this.deps.db)) {
      const tell = await this.tell(
        over.owner_id,
        over.tenant_id,
        (trx) => claimTold(trx, over.domain_user_id),
        (language) => translate(language, 'mail.send_limit_notice', { address: over.uid, limit: String(over.over_limit ?? '') }),
      );
      if (tell) told++;
    }
    for (const over of await listUntoldOverDomainLimits(this.deps.db)) {
      const tell = await this.tell(
        over.owner_id,
        over.tenant_id,
        (trx) => claimDomainTold(trx, over.domain_id),
        (language) =>
          translate(language, 'mail.domain_send_limit_notice', {
            domain: displayDomainName(over.name),
            limit: String(over.over_limit ?? ''),
          }),
      );
      if (tell) told++;
    }
    return told;
  }

  /** One stored warning each for the owner and the tenant's admins, once (`claim` is false when another pass told). */
  private async tell(
    ownerId: number,
    tenantId: number,
    claim: (trx: Db) => Promise<boolean>,
    text: (language: LanguageCode) => string,
  ): Promise<boolean> {
    const now = this.deps.clock.now();
    const notices = await this.deps.db.transaction().execute(async (trx) => {
      if (!(await claim(trx))) return [];
      const sent: { userId: number; event: NotificationEvent }[] = [];
      for (const user of await usersToTell(trx, ownerId, tenantId)) {
        const event = { type: 'warning', text: text(languageOf(user)) } as const;
        await insertNotification(trx, { tenant_id: user.tenant_id, user_id: user.id, ...event, created_at: now });
        sent.push({ userId: user.id, event });
      }
      return sent;
    });
    for (const { userId, event } of notices) this.deps.realtime.notify(userId, event);
    return notices.length > 0;
  }
}

export function startMailLimitsJob(limits: MailSendLimits, log: FastifyBaseLogger): { stop(): void } {
  return startPeriodic(
    () =>
      limits
        .runOnce()
        .then((told) => {
          if (told) log.warn({ mailboxes: told }, 'mailboxes over their sending limit: owners told');
        })
        .catch((error: unknown) => log.error({ err: error }, 'mail limits pass failed')),
    { everyMs: MAIL_LIMITS_EVERY_MS, firstAfterMs: 10_000 },
  );
}
