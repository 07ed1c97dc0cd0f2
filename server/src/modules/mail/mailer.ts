import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { LanguageCode, OutboxMail } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import type { JobDefinition, JobQueue } from '../jobs/queue.ts';
import { insertOutboxMail, listOutboxMails } from './queries.ts';
import { renderMail, type MailKind, type MailParams } from './templates.ts';

export interface MailerOptions {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** smtp://user:pass@host:587 or smtps://…:465 (nodemailer URL, query options allowed); without it mails go to the outbox. */
  smtpUrl?: string | undefined;
  /** The sender address (`noreply@example.com`); the tenant's title becomes its display name. */
  from: string;
  production: boolean;
  /** With a queue every mail is a durable job (sent after the answer, retried); without one, send() delivers at once. */
  jobs?: JobQueue | undefined;
}

export interface MailRequest<K extends MailKind = MailKind> {
  to: string;
  language: LanguageCode;
  /** The tenant the mail belongs to (the outbox can be filtered by it); null for operator mails. */
  tenantId: number | null;
  tenantTitle: string;
  kind: K;
  params: MailParams[K];
}

export const OUTBOX_PAGE_SIZE = 200;

// A mail job that cannot reach the server fails within seconds and is retried, rather than holding a worker for nodemailer's minutes.
// Query parameters of SMTP_URL override these.
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

const LINK_PATTERN = /https?:\/\/[^\s<>"']+/g;

/**
 * What of an error is safe to log. Not the whole object: PGlite attaches the query's `params` to
 * its errors (here the body with its links and codes), and pino would log every own property.
 */
function describeError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err) };
  const extra = err as Error & { code?: unknown; command?: unknown; responseCode?: unknown; response?: unknown };
  return {
    type: err.name,
    message: err.message,
    stack: err.stack,
    // SMTP and database error codes, and the SMTP server's answer (never the message it refused).
    code: extra.code,
    command: extra.command,
    responseCode: extra.responseCode,
    response: typeof extra.response === 'string' ? extra.response : undefined,
  };
}

/**
 * A mail could neither be sent nor stored. The original error is only its (non-enumerable)
 * `cause`, so callers that log this error do not print the body a database error carries.
 */
export class MailDeliveryError extends Error {
  readonly kind: MailKind;

  constructor(kind: MailKind, cause: unknown) {
    super(`The ${kind} mail could not be delivered: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'MailDeliveryError';
    this.kind = kind;
  }
}

/**
 * Sends transactional mail: over SMTP when SMTP_URL is set, otherwise into the outbox table that
 * super admins read on the Outbox page (so the embedded default can finish registration and
 * password reset without a mail server).
 */
export class Mailer {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly log: FastifyBaseLogger;
  private readonly fromAddress: string;
  private readonly production: boolean;
  private readonly transport: Transporter | undefined;
  private readonly job: JobDefinition<MailRequest> | undefined;

  constructor(options: MailerOptions) {
    this.db = options.db;
    this.clock = options.clock;
    this.log = options.log;
    this.production = options.production;
    // Accept `Name <address>` as well: the display name is always the tenant's title.
    this.fromAddress = /<([^<>]+)>/.exec(options.from)?.[1]?.trim() ?? options.from.trim();
    this.transport = options.smtpUrl ? nodemailer.createTransport({ ...SMTP_TIMEOUTS, url: options.smtpUrl }) : undefined;
    this.job = options.jobs?.define<MailRequest>('mail', (request) => this.deliver(request), { describe: (request) => request.to });
  }

  /** Where mails go: `smtp` when a transport is configured, otherwise `outbox`. */
  get mode(): 'smtp' | 'outbox' {
    return this.transport ? 'smtp' : 'outbox';
  }

  /**
   * Queues the mail as a job (in the caller's transaction when `db` is one: no mail for a change
   * that rolled back); the job renders and delivers it, and is retried with backoff.
   */
  async send<K extends MailKind>(request: MailRequest<K>, options: { db?: Db } = {}): Promise<void> {
    if (!this.job) return this.deliver(request);
    await this.job.send(request as MailRequest, options);
  }

  /** Sends or stores the mail now; rejects with a MailDeliveryError (already logged) when it could not. */
  async deliver<K extends MailKind>(request: MailRequest<K>): Promise<void> {
    // Never the body, link or code: those are credentials until they expire.
    const meta = { kind: request.kind, to: request.to, tenantId: request.tenantId };
    try {
      const mail = renderMail(request.kind, request.language, request.params, request.tenantTitle);
      if (this.transport) {
        const info: { messageId?: string } = await this.transport.sendMail({
          from: { name: request.tenantTitle.replace(/\s+/g, ' ').trim(), address: this.fromAddress },
          to: request.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
        });
        this.log.info({ mail: { ...meta, messageId: info.messageId } }, 'mail sent');
        return;
      }
      const row = await insertOutboxMail(this.db, {
        tenant_id: request.tenantId,
        recipient: request.to,
        subject: mail.subject,
        text_body: mail.text,
        html_body: mail.html,
        created_at: this.clock.now(),
      });
      if (this.production) {
        this.log.info({ mail: { ...meta, id: row.id, subject: mail.subject } }, 'mail written to the outbox');
      } else {
        // Development convenience: the embedded mode has no mail server, so the links are printed.
        const links = [...new Set(mail.text.match(LINK_PATTERN) ?? [])];
        this.log.info(
          { mail: { ...meta, id: row.id, subject: mail.subject, links } },
          `mail to ${request.to} written to the outbox: ${mail.subject}${links.length ? ` ${links.join(' ')}` : ''}`,
        );
      }
    } catch (err) {
      this.log.error({ err: describeError(err), mail: meta }, 'mail delivery failed');
      throw new MailDeliveryError(request.kind, err);
    }
  }

  /** The newest outbox mails (at most OUTBOX_PAGE_SIZE), all tenants unless one is given. */
  async outbox(options: { tenantId?: number | undefined } = {}): Promise<OutboxMail[]> {
    const rows = await listOutboxMails(this.db, { limit: OUTBOX_PAGE_SIZE, tenantId: options.tenantId });
    return rows.map((row) => ({
      id: row.id,
      to: row.recipient,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
      created_at: new Date(row.created_at).toISOString(),
    }));
  }

  async close(): Promise<void> {
    this.transport?.close();
  }
}
