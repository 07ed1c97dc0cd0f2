import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.ts';
import type { UserRow } from '../users/queries.ts';
import type { SecurityKind } from '../mail/templates.ts';
import { publicBaseUrl } from '../tenants/links.ts';
import { displayName, userLanguage, type MailSender } from './mail-port.ts';

export interface TenantRef {
  id: number;
  title: string;
  public_url: string | null;
}

/**
 * Tells a user by e-mail that a credential changed. A mail failure is logged but does not undo
 * the change the user just made.
 */
export class SecurityNotifier {
  private readonly mail: MailSender;
  private readonly clock: Clock;
  private readonly log: FastifyBaseLogger;
  private readonly fallbackUrl: string;

  constructor(mail: MailSender, clock: Clock, log: FastifyBaseLogger, fallbackUrl: string) {
    this.mail = mail;
    this.clock = clock;
    this.log = log;
    this.fallbackUrl = fallbackUrl;
  }

  async notify(user: UserRow, kind: SecurityKind, context: { ip: string; tenant: TenantRef }): Promise<void> {
    try {
      await this.mail.send({
        to: user.email,
        language: userLanguage(user),
        tenantId: context.tenant.id,
        tenantTitle: context.tenant.title,
        kind,
        params: {
          name: displayName(user),
          time: this.clock.now(),
          ip: context.ip,
          resetLink: `${publicBaseUrl(context.tenant, this.fallbackUrl)}/password/forgot`,
        },
      });
    } catch (error) {
      this.log.error({ err: error, kind, userId: user.id }, 'security notification not sent');
    }
  }
}
