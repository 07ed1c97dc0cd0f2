import { Resolver } from 'node:dns/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Certificate, NotificationEvent } from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import { HttpError } from '../../http/errors.ts';
import { translate } from '../../i18n/messages.ts';
import type { Clock } from '../../lib/clock.ts';
import { startPeriodic } from '../../lib/periodic.ts';
import { ChannelListener } from '../../db/listener.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { displayDomainName } from '../domains/names.ts';
import { findVisibleDomain } from '../domains/queries.ts';
import { formatDate } from '../expiry/service.ts';
import type { JobDefinition, JobQueue } from '../jobs/queue.ts';
import type { Mailer } from '../mail/mailer.ts';
import { insertNotification } from '../notifications/queries.ts';
import { languageOf } from '../shop/language.ts';
import { publicBaseUrl } from '../tenants/links.ts';
import type { TenantResolver } from '../tenants/service.ts';
import { findUserById, type UserRow } from '../users/queries.ts';
import type { EventSink } from '../webhooks/events.ts';
import { serviceNoticeMail } from '../billing/notice-mail.ts';
import { AcmeCa, AcmeProblem, type AcmeSettings } from './acme.ts';
import { CERTIFICATE_KEYS_PURPOSE } from './keys.ts';
import { checkUpload } from './upload.ts';
import { PlatformCertificate } from './platform.ts';
import { duplicatesFullUntil, issuedColumns, retryAfterFailure, weekBefore } from './issued.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import {
  claimCertificate,
  claimRenewalInfo,
  renewalInfoDue,
  claimExpiryWarning,
  deleteDnsChallenge,
  deleteHttpChallenge,
  domainForCertificate,
  claimRevocation,
  dueDomains,
  dueRevocations,
  findAccount,
  finishRevocation,
  findCertificate,
  findPlatformCertificate,
  finishOrder,
  insertAccount,
  insertDnsChallenge,
  insertHttpChallenge,
  insertOrder,
  issuedSince,
  saveUploaded,
  ordersSince,
  updateCertificate,
  type CertificateRow,
} from './queries.ts';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Let's Encrypt's rate limits (letsencrypt.org/docs/rate-limits), kept under on every CA: new
 * orders per account in 3 hours, and the same set of names at most 5 times a week. Failed
 * validations (5 per name an hour) are kept under by the backoff: never sooner than 15 minutes.
 */
export const LETS_ENCRYPT_LIMITS = {
  newOrdersPer3Hours: 300,
  duplicateCertificatesPerWeek: 5,
  failedValidationsPerHostnamePerHour: 5,
} as const;
/** After the n-th failed order in a row: 15 minutes, 1 hour, 4 hours, 12 hours, then once a day. */
export const RETRY_AFTER_MINUTES = [15, 60, 240, 720, 1440] as const;
/** A revocation the CA keeps refusing is given up after this many tries (a week with the backoff). */
export const REVOKE_ATTEMPTS = 10;
/** How long a claimed order may run before another pass may take it over (a crashed worker's). */
const ORDER_LEASE_MS = 10 * MINUTE;
/** The owner is told when renewal still fails this close to the end. */
export const WARN_DAYS_BEFORE_END = 14;
export const CERTIFICATE_JOB = 'certificate_order';
export const PLATFORM_CERTIFICATE_JOB = 'platform_certificate_order';

export interface CertificateDeps {
  db: Db;
  clock: Clock;
  secrets: SecretBox;
  /** Null: certificates are off on this platform (no CA configured). */
  acme: AcmeSettings | null;
  jobs?: JobQueue | undefined;
  events?: EventSink | undefined;
  mailer: Pick<Mailer, 'send'>;
  realtime: { notify(userId: number, event: NotificationEvent): void };
  tenants: Pick<TenantResolver, 'byId'>;
  audit: AuditService;
  log: FastifyBaseLogger;
  fallbackUrl: string;
  /** Where the name's delegation is asked (DNS_RESOLVERS; empty: the system's resolvers). */
  resolvers: string[];
  /** The panel's own names (settings.ts platformNames): its certificate is every daemon's default. */
  platformNames?: string[] | undefined;
}

/**
 * Every domain whose zone Berth serves gets a certificate for its name and wildcard by DNS-01: the
 * CA's question is answered by a TXT record in Berth's own zone (served by PowerDNS the moment it
 * is written); a domain whose public DNS is delegated elsewhere gets one for its name and www by
 * HTTP-01, answered by its web server's agent (agent/src/acme-challenges.ts). A pass finds what is due — new, failed and waiting no longer, or at two thirds of its
 * lifetime — and claims each in the database, so any number of instances can run it; the order
 * itself is a durable job.
 */
export class CertificateService {
  private readonly deps: CertificateDeps;
  private readonly ca: AcmeCa | null;
  private readonly keys: SecretBox;
  private readonly job: JobDefinition<{ domainId: number }> | undefined;
  private readonly platform: PlatformCertificate | undefined;
  private readonly platformJob: JobDefinition<Record<string, never>> | undefined;

  constructor(deps: CertificateDeps) {
    this.deps = deps;
    this.ca = deps.acme ? new AcmeCa(deps.acme) : null;
    this.keys = deps.secrets.derive(CERTIFICATE_KEYS_PURPOSE);
    this.job = this.ca
      ? deps.jobs?.define<{ domainId: number }>(CERTIFICATE_JOB, (data) => this.order(data.domainId), {
          describe: (data) => `domain #${data.domainId}`,
          // The order records its own failure and backoff: the queue does not retry it.
          retryLimit: 0,
        })
      : undefined;
    this.platform = this.platformWith(deps.platformNames ?? []);
    const platform = this.platform;
    this.platformJob = platform
      ? deps.jobs?.define<Record<string, never>>(PLATFORM_CERTIFICATE_JOB, () => platform.order(), {
          describe: () => platform.names.join(', '),
          retryLimit: 0,
        })
      : undefined;
  }

  /**
   * The panel's own certificate for these names (the ones it was started with: platformNames); none
   * without a CA or names. Ordering it for other names replaces the one in use, as a restart with
   * another BERTH_PUBLIC_URL does.
   */
  platformWith(names: string[]): PlatformCertificate | undefined {
    const { deps } = this;
    return this.ca && names.length > 0
      ? new PlatformCertificate(
          {
            db: deps.db,
            clock: deps.clock,
            log: deps.log,
            ca: this.ca,
            keys: this.keys,
            account: () => this.account(),
            delegatedElsewhere: (name, nameServers) => this.delegatedElsewhere(name, nameServers),
            retryAfterMinutes: RETRY_AFTER_MINUTES,
            duplicatesPerWeek: LETS_ENCRYPT_LIMITS.duplicateCertificatesPerWeek,
            leaseMs: ORDER_LEASE_MS,
          },
          names,
        )
      : undefined;
  }

  get enabled(): boolean {
    return this.ca !== null;
  }

  /**
   * One pass: what is due is claimed and ordered, within the CA's limit on new orders; the
   * certificates of deleted domains are revoked.
   */
  async runOnce(now: Date = this.deps.clock.now()): Promise<{ ordered: number; revoked: number }> {
    if (!this.ca) return { ordered: 0, revoked: 0 };
    const revoked = await this.revokeDue(this.ca, now);
    // Before the due ones are picked: a window the CA says is open now is renewed in this pass.
    await this.askRenewalInfo(this.ca, now);
    const room = LETS_ENCRYPT_LIMITS.newOrdersPer3Hours - (await ordersSince(this.deps.db, new Date(now.getTime() - 3 * HOUR)));
    if (room <= 0) return { ordered: 0, revoked };
    // The panel's own names first (every daemon's default certificate); `ordered` counts domains.
    const platform = this.platform && (await this.platform.claim(now));
    if (platform) {
      if (this.platformJob) await this.platformJob.send({});
      else await this.platform!.order();
    }
    let ordered = 0;
    for (const domain of await dueDomains(this.deps.db, { now, limit: Math.min(room - (platform ? 1 : 0), 100) })) {
      if (!(await claimCertificate(this.deps.db, domain, now, new Date(now.getTime() + ORDER_LEASE_MS)))) continue;
      await this.start(domain.id);
      ordered++;
    }
    return { ordered, revoked };
  }

  /**
   * ACME Renewal Information (RFC 9773): for each certificate Berth ordered, the CA's suggested
   * window moves its renewal to a random moment inside it (at once when the window is already
   * open past that moment, as for a certificate the CA will revoke), and a renewal time already
   * inside the window stays. Asked again after the CA's Retry-After (within 1 hour to 1 day); a CA
   * that offers none is asked again a day later and the renewal stays at two thirds of the lifetime.
   */
  private async askRenewalInfo(ca: AcmeCa, now: Date): Promise<void> {
    const { db, log } = this.deps;
    const due = await renewalInfoDue(db, { now, limit: 50 });
    if (due.length === 0) return;
    let base: string | null;
    try {
      base = await ca.renewalInfoBase();
    } catch (error) {
      log.warn({ problem: error instanceof Error ? error.message : String(error) }, 'renewal information not had');
      return;
    }
    for (const row of due) {
      if (!(await claimRenewalInfo(db, row.domain_id, now, new Date(now.getTime() + HOUR)))) continue;
      try {
        const window = base ? await ca.renewalInfo(base, row.cert_pem!) : null;
        if (!window) {
          await updateCertificate(db, row.domain_id, { renewal_info_at: new Date(now.getTime() + DAY) });
          continue;
        }
        const current = row.renew_at ? new Date(row.renew_at) : null;
        const span = window.end.getTime() - window.start.getTime();
        const renewAt =
          current && current >= window.start && current <= window.end
            ? current
            : new Date(Math.max(now.getTime(), window.start.getTime() + Math.floor(Math.random() * span)));
        const retry = Math.min(DAY, Math.max(HOUR, window.retryAfterSeconds * 1000));
        await updateCertificate(db, row.domain_id, { renew_at: renewAt, renewal_info_at: new Date(now.getTime() + retry) });
      } catch (error) {
        log.warn(
          { domainId: row.domain_id, problem: error instanceof Error ? error.message : String(error) },
          'renewal information not had',
        );
      }
    }
  }

  /**
   * The certificates of deleted domains (left by the database when their row went, migration
   * 0037), revoked at the CA; a CA that cannot be reached is asked again with the orders' backoff,
   * up to REVOKE_ATTEMPTS times.
   */
  private async revokeDue(ca: AcmeCa, now: Date): Promise<number> {
    const { db } = this.deps;
    let revoked = 0;
    for (const row of await dueRevocations(db, { now, limit: 20, maxAttempts: REVOKE_ATTEMPTS })) {
      const wait = RETRY_AFTER_MINUTES[Math.min(row.attempts, RETRY_AFTER_MINUTES.length - 1)]! * MINUTE;
      if (!(await claimRevocation(db, row.id, now, new Date(now.getTime() + wait)))) continue;
      try {
        await ca.revoke(await this.account(), row.cert_pem);
        await finishRevocation(db, row.id, { revoked_at: now, problem: null });
        revoked++;
      } catch (error) {
        const problem = error instanceof Error ? error.message : String(error);
        this.deps.log.warn({ serial: row.serial, problem }, 'certificate revocation failed');
        await finishRevocation(db, row.id, { revoked_at: null, problem });
      }
    }
    return revoked;
  }

  /** "Renew now" on the domain page: ordered at once unless an order runs or a failed one's wait is not over. */
  async renewNow(viewer: UserRow, domainId: number): Promise<Certificate> {
    const domain = await findVisibleDomain(this.deps.db, viewer, domainId);
    if (!domain) throw new HttpError(404, 'http.not_found');
    const served = await domainForCertificate(this.deps.db, domainId);
    if (!this.ca || !served?.served) throw new HttpError(409, 'certificates.not_served');
    const now = this.deps.clock.now();
    if (!(await claimCertificate(this.deps.db, served, now, new Date(now.getTime() + ORDER_LEASE_MS), true))) {
      const row = await findCertificate(this.deps.db, domainId);
      const at = row?.next_try_at ? new Date(row.next_try_at) : now;
      throw new HttpError(409, 'certificates.busy', { params: { time: at.toISOString().slice(11, 16) } });
    }
    await this.start(domainId);
    return this.present(await findCertificate(this.deps.db, domainId), true, now);
  }

  /**
   * The owner's own certificate instead of one ordered: checked (checkUpload), its key sealed like
   * an ordered one's; it is not renewed, and "renew now" replaces it with an ordered one.
   */
  async upload(actor: Actor, domainId: number, input: { certificate: string; private_key: string }): Promise<Certificate> {
    const domain = await findVisibleDomain(this.deps.db, actor.user, domainId);
    if (!domain) throw new HttpError(404, 'http.not_found');
    const now = this.deps.clock.now();
    const checked = checkUpload(input, domain.name, now);
    await saveUploaded(
      this.deps.db,
      { id: domain.id, tenant_id: domain.tenant_id },
      {
        names: checked.names,
        issuer: checked.issuer,
        serial: checked.serial,
        not_before: checked.notBefore,
        not_after: checked.notAfter,
        cert_pem: checked.certPem,
        key_sealed: this.keys.seal(checked.keyPem),
        updated_at: now,
      },
    );
    await this.deps.audit.recordAction(
      actor,
      'certificate.uploaded',
      domain.tenant_id,
      { type: 'domain', id: domain.id },
      {
        name: domain.name,
        issuer: checked.issuer,
        not_after: checked.notAfter.toISOString(),
      },
    );
    const served = await domainForCertificate(this.deps.db, domainId);
    return this.present(await findCertificate(this.deps.db, domainId), Boolean(served?.served), now);
  }

  /** What the domain page shows of its certificate. */
  async describe(viewer: UserRow, domainId: number): Promise<Certificate> {
    const domain = await findVisibleDomain(this.deps.db, viewer, domainId);
    if (!domain) throw new HttpError(404, 'http.not_found');
    const served = await domainForCertificate(this.deps.db, domainId);
    return this.present(await findCertificate(this.deps.db, domainId), Boolean(this.ca && served?.served), this.deps.clock.now());
  }

  /** The panel's own certificate, for the servers page (super admins): `none` without a CA or a public name. */
  async describePlatform(): Promise<Certificate> {
    const row = this.platform ? await findPlatformCertificate(this.deps.db) : undefined;
    const now = this.deps.clock.now();
    if (!row) return this.present(undefined, Boolean(this.platform), now);
    return this.present(row, true, now);
  }

  private async start(domainId: number): Promise<void> {
    if (this.job) await this.job.send({ domainId });
    else await this.order(domainId);
  }

  /**
   * One order for a claimed domain: the domain and its wildcard by DNS-01, or, when the public DNS
   * delegates the domain elsewhere, the domain, www and the aliases that point here by HTTP-01. Success stores the
   * certificate (key sealed) and its renewal time; a failure keeps what was valid, records the
   * CA's reason and when to try again, and tells the tenant's webhooks and, near the end, the owner.
   */
  async order(domainId: number): Promise<void> {
    if (!this.ca) return;
    const { db, clock } = this.deps;
    const domain = await domainForCertificate(db, domainId);
    const row = await findCertificate(db, domainId);
    if (!domain || !row) return;
    if (!domain.served) {
      await updateCertificate(db, domainId, { next_try_at: null, updated_at: clock.now() });
      return;
    }
    // Berth's own zone answers DNS-01 (the name and its wildcard) unless the name's delegation
    // points elsewhere; then the site's web server answers HTTP-01 (the name and www).
    const method =
      (await this.delegatedElsewhere(domain.name, domain.name_servers)) && domain.web_server_id !== null ? 'http-01' : 'dns-01';
    // The wildcard covers every alias; by HTTP-01 each alias is a name of its own, asked for only
    // when it points where the site's name does (one that does not would fail the whole order).
    const names =
      method === 'dns-01'
        ? [domain.name, `*.${domain.name}`]
        : [domain.name, `www.${domain.name}`, ...(await this.aliasesHere(domain.name, domain.aliases))];
    const started = clock.now();
    await updateCertificate(db, domainId, { aliases: domain.aliases });
    const fullUntil = duplicatesFullUntil(
      await issuedSince(db, domainId, weekBefore(started)),
      LETS_ENCRYPT_LIMITS.duplicateCertificatesPerWeek,
    );
    if (fullUntil) {
      await updateCertificate(db, domainId, { next_try_at: fullUntil, updated_at: started });
      return;
    }
    const orderId = await insertOrder(db, { domain_id: domainId, names, started_at: started });
    // A renewal of one Berth ordered names it to the CA (acme.ts); one's own is not the CA's to know.
    const replacing = row.state === 'valid' && row.method !== 'custom' ? row.cert_pem : null;
    try {
      const account = await this.account();
      const issued =
        method === 'dns-01'
          ? await this.ca.orderByDns(
              account,
              domain.name,
              names,
              (answer) => insertDnsChallenge(db, { domain_id: domainId, name: answer.name, token: answer.token, created_at: clock.now() }),
              async (id) => void (await deleteDnsChallenge(db, id)),
              replacing,
            )
          : await this.ca.orderByHttp(
              account,
              names,
              (answer) =>
                insertHttpChallenge(db, {
                  domain_id: domainId,
                  token: answer.token,
                  key_authorization: answer.keyAuthorization,
                  created_at: clock.now(),
                }),
              async (id) => void (await deleteHttpChallenge(db, id)),
              replacing,
            );

      await updateCertificate(db, domainId, {
        ...issuedColumns(issued, names, method, this.keys, clock.now()),
        // The new certificate's renewal information is asked at the next pass.
        renewal_info_at: null,
      });
      await finishOrder(db, orderId, 'valid');
      this.deps.log.info({ domain: domain.name, notAfter: issued.notAfter }, 'certificate issued');
    } catch (error) {
      await finishOrder(db, orderId, 'failed');
      await this.failed(domain, row, names, method, error instanceof AcmeProblem ? error.message : String(error));
    }
  }

  /**
   * The names of the site's aliases (`<alias>.<name>`) whose addresses in the public DNS
   * (DNS_RESOLVERS, else the system's) include one of the name's own: the CA reaches the same web
   * server for them.
   */
  private async aliasesHere(name: string, aliases: string[]): Promise<string[]> {
    const resolver = this.resolver();
    const addresses = async (host: string) =>
      new Set(
        (
          await Promise.all([resolver.resolve4(host).catch(() => [] as string[]), resolver.resolve6(host).catch(() => [] as string[])])
        ).flat(),
      );
    const own = await addresses(name);
    if (own.size === 0) return [];
    const names = aliases.map((alias) => `${alias}.${name}`);
    const pointing = await Promise.all(names.map(async (host) => [...(await addresses(host))].some((address) => own.has(address))));
    return names.filter((_, index) => pointing[index]);
  }

  private resolver(): Resolver {
    const resolver = new Resolver({ timeout: 2_000, tries: 1 });
    if (this.deps.resolvers.length > 0) resolver.setServers(this.deps.resolvers);
    return resolver;
  }

  /**
   * Whether the public DNS (DNS_RESOLVERS, else the system's) delegates `name` to name servers
   * other than the tenant's: the CA would not ask Berth's zone. Unknown (no answer, no name
   * servers of the tenant) counts as Berth's.
   */
  private async delegatedElsewhere(name: string, nameServers: string[]): Promise<boolean> {
    const bare = (host: string) => host.toLowerCase().replace(/\.$/, '');
    const ours = new Set(nameServers.map(bare));
    if (ours.size === 0) return false;
    const delegated = await this.resolver()
      .resolveNs(name)
      .catch(() => [] as string[]);
    return delegated.length > 0 && !delegated.some((host) => ours.has(bare(host)));
  }

  private async failed(
    domain: { id: number; name: string; tenant_id: number; owner_id: number | null },
    row: CertificateRow,
    names: string[],
    method: 'dns-01' | 'http-01',
    problem: string,
  ): Promise<void> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const attempts = row.attempts + 1;
    const nextTry = retryAfterFailure(now, attempts, RETRY_AFTER_MINUTES);
    const validUntil = row.state === 'valid' && row.not_after ? new Date(row.not_after) : null;
    await db.transaction().execute(async (trx) => {
      await updateCertificate(trx, domain.id, {
        names,
        method,
        state: validUntil ? 'valid' : 'failed',
        problem: problem.slice(0, 2000),
        attempts,
        next_try_at: nextTry,
        updated_at: now,
      });
      await this.deps.events?.emit(trx, domain.tenant_id, 'certificate.failed', {
        domain: { id: domain.id, name: domain.name, owner_id: domain.owner_id },
        names,
        problem,
        attempts,
        next_try_at: nextTry.toISOString(),
        valid_until: validUntil?.toISOString() ?? null,
      });
    });
    this.deps.log.warn({ domain: domain.name, problem, attempts, nextTry }, 'certificate order failed');
    if (validUntil && validUntil.getTime() - now.getTime() <= WARN_DAYS_BEFORE_END * DAY && domain.owner_id !== null)
      await this.warnOwner(domain, domain.owner_id, validUntil, problem);
  }

  /** A stored notification and a mail, once per end date, when renewal still fails 14 days before it. */
  private async warnOwner(domain: { id: number; name: string; tenant_id: number }, ownerId: number, validUntil: Date, problem: string) {
    const owner = await findUserById(this.deps.db, ownerId);
    if (!owner) return;
    const tenant = await this.deps.tenants.byId(owner.tenant_id);
    const language = languageOf(owner);
    const name = displayDomainName(domain.name);
    const told = {
      type: 'warning',
      text: translate(language, 'certificates.failing_notice', { domain: name, date: formatDate(validUntil, language), problem }),
    } as const;
    const sent = await this.deps.db.transaction().execute(async (trx) => {
      if (!(await claimExpiryWarning(trx, domain.id, validUntil))) return false;
      await insertNotification(trx, { tenant_id: owner.tenant_id, user_id: owner.id, ...told, created_at: this.deps.clock.now() });
      await this.deps.mailer.send(
        serviceNoticeMail(owner, tenant, {
          notice: 'certificate_failing',
          item: name,
          invoice: '',
          amount: '',
          date: validUntil.toISOString(),
          link: `${publicBaseUrl(tenant, this.deps.fallbackUrl)}/host/domain/${domain.id}`,
        }),
        { db: trx },
      );
      return true;
    });
    if (sent) this.deps.realtime.notify(owner.id, told);
  }

  /** The platform's account at the CA: registered once, its key sealed in the database. */
  private async account(): Promise<{ keyPem: string; accountUrl: string }> {
    const directoryUrl = this.deps.acme!.directoryUrl;
    let stored = await findAccount(this.deps.db, directoryUrl);
    if (!stored) {
      const made = await this.ca!.register();
      await insertAccount(this.deps.db, {
        directory_url: directoryUrl,
        key_sealed: this.deps.secrets.seal(made.keyPem),
        account_url: made.accountUrl,
        created_at: this.deps.clock.now(),
      });
      stored = await findAccount(this.deps.db, directoryUrl);
    }
    return { keyPem: this.deps.secrets.open(stored!.key_sealed), accountUrl: stored!.account_url };
  }

  private present(
    row:
      | Pick<CertificateRow, 'state' | 'names' | 'method' | 'issuer' | 'not_before' | 'not_after' | 'renew_at' | 'problem' | 'next_try_at'>
      | undefined,
    served: boolean,
    now: Date,
  ): Certificate {
    const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);
    if (!row) {
      return {
        state: served ? 'pending' : 'none',
        names: [],
        method: null,
        issuer: null,
        not_before: null,
        not_after: null,
        renew_at: null,
        problem: null,
        next_try_at: null,
      };
    }
    const valid = row.state === 'valid';
    const renewing = valid && (row.problem !== null || (row.renew_at !== null && new Date(row.renew_at) <= now));
    return {
      state: valid ? (renewing ? 'renewing' : 'valid') : row.state === 'failed' ? 'failed' : served ? 'pending' : 'none',
      names: row.names,
      method: row.method,
      issuer: row.issuer,
      not_before: iso(row.not_before),
      not_after: iso(row.not_after),
      renew_at: iso(row.renew_at),
      problem: row.problem,
      next_try_at: row.problem ? iso(row.next_try_at) : null,
    };
  }
}

/**
 * Runs the certificate pass soon after start and then every `everyMs`; several instances may run it
 * at once. On PostgreSQL (`databaseUrl`) it also runs whenever the database says a certificate may
 * be due (channel `berth_certificates`, migration 0047: a zone newly served, a site's names
 * changed), so a new domain has its certificate within seconds; and when that channel is back
 * after a lost connection, for what it said meanwhile.
 */
export function startCertificateJob(
  certificates: CertificateService,
  log: FastifyBaseLogger,
  options: { everyMs: number; firstAfterMs?: number; databaseUrl?: string | undefined },
): { stop(): Promise<void>; wake(): void } {
  const periodic = startPeriodic(
    () =>
      certificates
        .runOnce()
        .then((done) => {
          if (done.ordered) log.info(done, 'certificate pass');
        })
        .catch((error: unknown) => log.error({ err: error }, 'certificate pass failed')),
    { everyMs: options.everyMs, firstAfterMs: options.firstAfterMs ?? 5_000 },
  );
  const listener = options.databaseUrl
    ? new ChannelListener({
        databaseUrl: options.databaseUrl,
        channel: 'berth_certificates',
        onNotification: () => periodic.wake(),
        onStateChange: (listening) => {
          if (listening) periodic.wake();
        },
        onError: (error) => log.warn({ message: error.message }, 'certificate channel: connection lost; passes run on their interval'),
      })
    : undefined;
  void listener?.start();
  return {
    wake: periodic.wake,
    stop: async () => {
      periodic.stop();
      await listener?.close();
    },
  };
}
