import type { FastifyBaseLogger } from 'fastify';
import type { NotificationEvent } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import { isLanguage, translate } from '../../i18n/messages.ts';
import type { AuditService } from '../audit/service.ts';
import { displayDomainName } from '../domains/names.ts';
import type { Mailer } from '../mail/mailer.ts';
import { publicBaseUrl } from '../tenants/links.ts';
import { displayNameOf } from '../tenants/scope.ts';
import type { ResolvedTenant, TenantResolver } from '../tenants/service.ts';
import { insertNotification } from '../notifications/queries.ts';
import { claimReminder, dueForReminder, type DueDomain } from './queries.ts';
import { startPeriodic } from '../../lib/periodic.ts';

const DAY = 24 * 60 * 60 * 1000;
/** Reminders go out 30, 7 and 1 days before a domain expires, once each per expiry date. */
export const REMINDER_DAYS = [30, 7, 1] as const;
const BATCH = 500;

export interface ExpiryDeps {
  db: Db;
  mailer: Pick<Mailer, 'send'>;
  realtime: { notify(userId: number, event: NotificationEvent): void };
  tenants: Pick<TenantResolver, 'byId'>;
  audit: AuditService;
  log: FastifyBaseLogger;
  /** The panel's URL when a tenant has no public URL of its own. */
  fallbackUrl: string;
}

/**
 * E-mails domain owners before their domains expire and leaves a notification in the panel
 * (stored, and pushed to the realtime channel). Safe to run any number of times, on any number of
 * instances: a reminder row is claimed in the same transaction that stores the notification.
 */
export class ExpiryReminders {
  private readonly deps: ExpiryDeps;

  constructor(deps: ExpiryDeps) {
    this.deps = deps;
  }

  /** Each domain falls into one window: (7, 30] days away gets the 30-day reminder, (1, 7] the 7-day one, (0, 1] the last. */
  async runOnce(now: Date): Promise<{ sent: number }> {
    let sent = 0;
    const tenants = new Map<number, ResolvedTenant | undefined>();
    for (const [i, days] of REMINDER_DAYS.entries()) {
      const nextDays = REMINDER_DAYS[i + 1] ?? 0;
      const window = { after: new Date(now.getTime() + nextDays * DAY), until: new Date(now.getTime() + days * DAY), daysBefore: days };
      let afterId = 0;
      for (;;) {
        const due = await dueForReminder(this.deps.db, { ...window, afterId, limit: BATCH });
        for (const domain of due) {
          if (!tenants.has(domain.tenant_id)) tenants.set(domain.tenant_id, await this.deps.tenants.byId(domain.tenant_id));
          if (await this.remind(domain, days, now, tenants.get(domain.tenant_id))) sent++;
        }
        if (due.length < BATCH) break;
        afterId = (due[due.length - 1] as DueDomain).id;
      }
    }
    return { sent };
  }

  private async remind(domain: DueDomain, daysBefore: number, now: Date, tenant: ResolvedTenant | undefined): Promise<boolean> {
    const expireAt = new Date(domain.expire_at as Date);
    const language = isLanguage(domain.owner_language) ? domain.owner_language : 'en';
    const name = displayDomainName(domain.name);
    const text = translate(language, 'expiry.notification', { domain: name, date: formatDate(expireAt, language) });
    const base = publicBaseUrl(tenant, this.deps.fallbackUrl);
    // The claim, the notification and the mail job commit together: a reminder is sent exactly once.
    const claimed = await this.deps.db.transaction().execute(async (trx) => {
      if (!(await claimReminder(trx, { domain_id: domain.id, days_before: daysBefore, expire_at: expireAt, sent_at: now }))) return false;
      await insertNotification(trx, { tenant_id: domain.tenant_id, user_id: domain.owner_id, type: 'warning', text, created_at: now });
      await this.deps.mailer.send(
        {
          to: domain.owner_email,
          language,
          tenantId: domain.tenant_id,
          tenantTitle: tenant?.title ?? 'Berth',
          kind: 'domain_expiry',
          params: {
            name: displayNameOf({ email: domain.owner_email, given_name: domain.owner_given_name, sn: domain.owner_sn }),
            domain: name,
            days: Math.max(1, Math.ceil((expireAt.getTime() - now.getTime()) / DAY)),
            expireAt: expireAt.toISOString(),
            link: `${base}/host/domain/${domain.id}/renew`,
          },
        },
        { db: trx },
      );
      return true;
    });
    if (!claimed) return false;
    this.deps.realtime.notify(domain.owner_id, { type: 'warning', text });
    await this.deps.audit.record({
      action: 'expiry.reminder_sent',
      tenantId: domain.tenant_id,
      userId: null,
      ip: null,
      target: { type: 'domain', id: domain.id },
      data: { name: domain.name, days_before: daysBefore, owner_id: domain.owner_id },
    });
    return true;
  }
}

/** The same locales the mails use (British English: 2 November 2026). */
const LOCALES = { en: 'en-GB', de: 'de-DE', cs: 'cs-CZ' } as const;
export const formatDate = (date: Date, language: keyof typeof LOCALES): string =>
  new Intl.DateTimeFormat(LOCALES[language], { dateStyle: 'long', timeZone: 'UTC' }).format(date);

export const EXPIRY_JOB_EVERY_MS = DAY;

/**
 * Runs the reminders soon after start and then once a day. Every run covers the day ahead, so no
 * reminder falls between two runs (a restart only adds a run); several instances may run it at once.
 */
export function startExpiryJob(
  reminders: ExpiryReminders,
  clock: Clock,
  log: FastifyBaseLogger,
  options: { everyMs?: number; firstAfterMs?: number } = {},
): { stop(): void } {
  return startPeriodic(
    () =>
      reminders
        .runOnce(clock.now())
        .then(({ sent }) => {
          // A line for every run, so whoever watches the log (e2e/support/shell-server.ts) knows it is over.
          log.info({ sent }, sent ? 'expiry reminders sent' : 'expiry reminders: none due');
        })
        .catch((error: unknown) => log.error({ err: error }, 'expiry reminders failed')),
    { everyMs: options.everyMs ?? EXPIRY_JOB_EVERY_MS, firstAfterMs: options.firstAfterMs ?? 5_000 },
  );
}
