import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { AcmeProblem, type AcmeCa } from './acme.ts';
import { duplicatesFullUntil, issuedColumns, retryAfterFailure, weekBefore } from './issued.ts';
import {
  claimPlatformCertificate,
  deleteDnsChallenge,
  deletePlatformHttpChallenge,
  findPlatformCertificate,
  finishOrder,
  insertDnsChallenge,
  insertOrder,
  insertPlatformHttpChallenge,
  platformIssuedSince,
  servedZoneOf,
  updatePlatformCertificate,
} from './queries.ts';

/** What the panel's certificate shares with the domains' (modules/certificates/service.ts). */
export interface PlatformContext {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  ca: AcmeCa;
  /** The box certificate keys are sealed in (the agents open it). */
  keys: SecretBox;
  account(): Promise<{ keyPem: string; accountUrl: string }>;
  delegatedElsewhere(name: string, nameServers: string[]): Promise<boolean>;
  /** The same backoff, limits and renewal time as a domain's certificate. */
  retryAfterMinutes: readonly number[];
  duplicatesPerWeek: number;
  leaseMs: number;
}

/**
 * The panel's own certificate: BERTH_PUBLIC_URL's host and webmail's name (certificates/settings.ts
 * platformNames), the default every daemon presents for a name without a certificate of its own
 * (nginx and Pure-FTPd through the web agents, Dovecot and Postfix through the mail agent:
 * migration 0049). DNS-01 when one zone Berth serves holds every name and the public DNS delegates
 * it to the tenant's name servers; HTTP-01 otherwise, answered by every web server's agent (the
 * panel's names point at a web server). Renewed at two thirds of its lifetime or when the names
 * change; a failure keeps the valid certificate in use and is tried again with the domains' backoff.
 */
export class PlatformCertificate {
  private readonly context: PlatformContext;
  readonly names: string[];

  constructor(context: PlatformContext, names: string[]) {
    this.context = context;
    this.names = names;
  }

  /** Claims the certificate when it is due; true when this caller is to order it. */
  async claim(now: Date): Promise<boolean> {
    if (this.names.length === 0) return false;
    return claimPlatformCertificate(this.context.db, this.names, now, new Date(now.getTime() + this.context.leaseMs));
  }

  /** One order for the claimed certificate. */
  async order(): Promise<void> {
    const { db, clock, ca, log } = this.context;
    const row = await findPlatformCertificate(db);
    if (!row || this.names.length === 0) return;
    const started = clock.now();
    const fullUntil = duplicatesFullUntil(await platformIssuedSince(db, weekBefore(started)), this.context.duplicatesPerWeek);
    if (fullUntil) {
      await updatePlatformCertificate(db, { next_try_at: fullUntil, updated_at: started });
      return;
    }
    const zone = await this.servingZone();
    const method = zone ? 'dns-01' : 'http-01';
    const orderId = await insertOrder(db, { domain_id: null, names: this.names, started_at: started });
    const replacing = row.state === 'valid' ? row.cert_pem : null;
    try {
      const account = await this.context.account();
      const issued = zone
        ? await ca.orderByDns(
            account,
            zone.name,
            this.names,
            (answer) => insertDnsChallenge(db, { domain_id: zone.id, name: answer.name, token: answer.token, created_at: clock.now() }),
            async (id) => void (await deleteDnsChallenge(db, id)),
            replacing,
          )
        : await ca.orderByHttp(
            account,
            this.names,
            (answer) =>
              insertPlatformHttpChallenge(db, {
                name: answer.name,
                token: answer.token,
                key_authorization: answer.keyAuthorization,
                created_at: clock.now(),
              }),
            async (id) => void (await deletePlatformHttpChallenge(db, id)),
            replacing,
          );
      await updatePlatformCertificate(db, issuedColumns(issued, this.names, method, this.context.keys, clock.now()));
      await finishOrder(db, orderId, 'valid');
      log.info({ names: this.names, notAfter: issued.notAfter }, "the panel's certificate issued");
    } catch (error) {
      await finishOrder(db, orderId, 'failed');
      const problem = error instanceof AcmeProblem ? error.message : String(error);
      const attempts = row.attempts + 1;
      const nextTry = retryAfterFailure(clock.now(), attempts, this.context.retryAfterMinutes);
      // A valid certificate stays in use as it is: its names (other ones keep it due) and how it came.
      await updatePlatformCertificate(db, {
        ...(row.state === 'valid' ? {} : { names: this.names, method }),
        state: row.state === 'valid' ? 'valid' : 'failed',
        problem: problem.slice(0, 2000),
        attempts,
        next_try_at: nextTry,
        updated_at: clock.now(),
      });
      log.warn({ names: this.names, problem, attempts, nextTry }, "the panel's certificate order failed");
    }
  }

  /**
   * The zone Berth serves that holds every name, when the public DNS asks Berth's name servers
   * for it; otherwise null (HTTP-01).
   */
  private async servingZone(): Promise<{ id: number; name: string } | null> {
    const zones = await Promise.all(this.names.map((name) => servedZoneOf(this.context.db, name)));
    const first = zones[0];
    if (!first || zones.some((zone) => zone?.id !== first.id)) return null;
    if (await this.context.delegatedElsewhere(first.name, first.name_servers)) return null;
    return { id: first.id, name: first.name };
  }
}
