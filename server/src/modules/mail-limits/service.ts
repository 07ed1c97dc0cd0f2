import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection.ts';
import { translate } from '../../i18n/messages.ts';
import type { Clock } from '../../lib/clock.ts';
import { startPeriodic } from '../../lib/periodic.ts';
import { insertNotification } from '../notifications/queries.ts';
import type { NotificationEvent } from '@berth/contracts';
import { languageOf } from '../shop/language.ts';
import { claimTold, listUntoldOverLimits, usersToTell } from './queries.ts';

/** How often the server looks for mailboxes that went over their limit (a minute: the notice is not urgent to the second). */
export const MAIL_LIMITS_EVERY_MS = 60_000;

/**
 * Outbound limits (migration 0040_mail_send_limits): the mail agent defers what a mailbox sends
 * past its hourly limit; this tells the mailbox's owner and the tenant's admins, with a stored
 * notification each, once per hour window (a stolen password sending spam is what it usually is).
 */
export class MailSendLimits {
  private readonly deps: { db: Db; clock: Clock; realtime: { notify(userId: number, event: NotificationEvent): void } };

  constructor(deps: MailSendLimits['deps']) {
    this.deps = deps;
  }

  /** Tells of every mailbox over its limit not told yet; answers how many mailboxes. */
  async runOnce(): Promise<number> {
    let told = 0;
    for (const over of await listUntoldOverLimits(this.deps.db)) {
      const now = this.deps.clock.now();
      const notices = await this.deps.db.transaction().execute(async (trx) => {
        if (!(await claimTold(trx, over.domain_user_id))) return [];
        const sent: { userId: number; event: NotificationEvent }[] = [];
        for (const user of await usersToTell(trx, over.owner_id, over.tenant_id)) {
          const event = {
            type: 'warning',
            text: translate(languageOf(user), 'mail.send_limit_notice', { address: over.uid, limit: String(over.over_limit ?? '') }),
          } as const;
          await insertNotification(trx, { tenant_id: user.tenant_id, user_id: user.id, ...event, created_at: now });
          sent.push({ userId: user.id, event });
        }
        return sent;
      });
      for (const { userId, event } of notices) this.deps.realtime.notify(userId, event);
      if (notices.length) told++;
    }
    return told;
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
