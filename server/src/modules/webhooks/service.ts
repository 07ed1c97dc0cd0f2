import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointInput,
  WebhookEndpointUpdate,
  WebhookEvent,
  WebhookEventData,
  WebhookEventType,
} from '@berth/contracts';
import type { Db } from '../../db/connection.ts';
import type { WebhookEndpointsTable } from '../../db/schema.ts';
import { HttpError } from '../../http/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { JobDefinition, JobQueue } from '../jobs/queue.ts';
import { AddressRefused, type AddressGuard } from './address-guard.ts';
import {
  countAttempts,
  countEndpoints,
  deleteEndpoint,
  findDelivery,
  findEndpoint,
  findEndpointById,
  insertDelivery,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  lockTenant,
  subscribedEndpoints,
  updateEndpoint,
} from './queries.ts';
import type { Selectable } from 'kysely';

export const MAX_ENDPOINTS_PER_TENANT = 10;
/** After a rotation the old secret still signs this long, so receivers can switch without losing events. */
export const ROTATION_GRACE_MS = 24 * 3600 * 1000;
const ATTEMPT_TIMEOUT_MS = 10_000;
const EXCERPT_BYTES = 1024;
const LOG_PAGE_SIZE = 100;
/**
 * Retried with backoff for about three days: 1, 2, 4 … minutes, at most 6 hours apart, 21 tries.
 * The job queue keeps the pauses (modules/jobs/queue.ts).
 */
const DELIVERY_RETRY = { retryLimit: 20, retryDelay: 60, retryBackoff: true, retryDelayMax: 6 * 3600 };

type EndpointRow = Selectable<WebhookEndpointsTable>;
interface DeliveryJob {
  endpointId: number;
  event: WebhookEvent;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
const newEventId = () => `msg_${randomBytes(12).toString('hex')}`;

function present(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    previous_secret_until: iso(row.previous_secret_until),
    created_at: iso(row.created_at) ?? '',
  };
}

/**
 * A tenant's signed outgoing webhooks: the endpoints, the events Berth emits to them (enqueued in
 * the transaction of the change, delivered by the job queue and retried for three days), and the
 * delivery log. Addresses are checked by AddressGuard on every attempt.
 */
export class WebhookService {
  private readonly deps: { db: Db; clock: Clock; secrets: SecretBox; jobs: JobQueue; guard: AddressGuard; log: FastifyBaseLogger };
  private readonly delivery: JobDefinition<DeliveryJob>;

  constructor(deps: WebhookService['deps']) {
    this.deps = deps;
    this.delivery = deps.jobs.define<DeliveryJob>('webhook_delivery', (job) => this.attempt(job), {
      ...DELIVERY_RETRY,
      describe: (job) => `${job.event.type} → endpoint ${job.endpointId}`,
    });
  }

  async list(tenantId: number): Promise<WebhookEndpoint[]> {
    return (await listEndpoints(this.deps.db, tenantId)).map(present);
  }

  async create(tenantId: number, payload: WebhookEndpointInput): Promise<WebhookEndpoint & { secret: string }> {
    const secret = newSecret();
    const now = this.deps.clock.now();
    const row = await this.deps.db.transaction().execute(async (trx) => {
      await lockTenant(trx, tenantId);
      if ((await countEndpoints(trx, tenantId)) >= MAX_ENDPOINTS_PER_TENANT) {
        throw new HttpError(422, 'webhooks.too_many', { params: { max: MAX_ENDPOINTS_PER_TENANT } });
      }
      return insertEndpoint(trx, {
        tenant_id: tenantId,
        url: payload.url,
        description: payload.description,
        events: payload.events,
        enabled: payload.enabled,
        secret_sealed: this.deps.secrets.seal(secret),
        created_at: now,
        updated_at: now,
      });
    });
    return { ...present(row), secret };
  }

  async update(tenantId: number, id: number, payload: WebhookEndpointUpdate): Promise<WebhookEndpoint> {
    const values = Object.fromEntries(Object.entries(payload).filter(([, value]) => value !== undefined));
    const row = await updateEndpoint(this.deps.db, tenantId, id, { ...values, updated_at: this.deps.clock.now() });
    if (!row) throw new HttpError(404, 'webhooks.not_found');
    return present(row);
  }

  async remove(tenantId: number, id: number): Promise<void> {
    const result = await deleteEndpoint(this.deps.db, tenantId, id);
    if (Number(result.numDeletedRows) === 0) throw new HttpError(404, 'webhooks.not_found');
  }

  /** A new secret (shown once); the old one keeps signing beside it for ROTATION_GRACE_MS. */
  async rotate(tenantId: number, id: number): Promise<WebhookEndpoint & { secret: string }> {
    const current = await this.endpoint(tenantId, id);
    const secret = newSecret();
    const now = this.deps.clock.now();
    const row = await updateEndpoint(this.deps.db, tenantId, id, {
      secret_sealed: this.deps.secrets.seal(secret),
      previous_secret_sealed: current.secret_sealed,
      previous_secret_until: new Date(now.getTime() + ROTATION_GRACE_MS),
      updated_at: now,
    });
    if (!row) throw new HttpError(404, 'webhooks.not_found');
    return { ...present(row), secret };
  }

  async deliveries(tenantId: number, id: number): Promise<WebhookDelivery[]> {
    await this.endpoint(tenantId, id);
    return (await listDeliveries(this.deps.db, id, LOG_PAGE_SIZE)).map((row) => ({
      id: row.id,
      event_id: row.event_id,
      event_type: row.event_type,
      attempt: row.attempt,
      status: row.status,
      response_code: row.response_code,
      response_excerpt: row.response_excerpt,
      error: row.error,
      created_at: iso(row.created_at) ?? '',
    }));
  }

  /** Sends `webhook.test` to this endpoint only (whatever it subscribes to). */
  async test(tenantId: number, id: number): Promise<void> {
    await this.endpoint(tenantId, id);
    const event = this.event(tenantId, 'webhook.test', { message: 'This is a test event from Berth.' });
    await this.delivery.send({ endpointId: id, event });
  }

  /** Sends a logged event again, as it was (same id: receivers that saw it can tell). */
  async replay(tenantId: number, deliveryId: number): Promise<void> {
    const found = await findDelivery(this.deps.db, tenantId, deliveryId);
    if (!found) throw new HttpError(404, 'webhooks.delivery_not_found');
    await this.delivery.send({ endpointId: found.endpoint_id, event: found.payload as WebhookEvent });
  }

  /**
   * Emits an event to the tenant's endpoints that take it. `db` is the transaction of the change:
   * the deliveries exist exactly when the change commits.
   */
  async emit<T extends WebhookEventType>(db: Db, tenantId: number, type: T, data: WebhookEventData<T>): Promise<void> {
    const endpoints = await subscribedEndpoints(db, tenantId, type);
    if (endpoints.length === 0) return;
    const event = this.event(tenantId, type, data);
    for (const endpoint of endpoints) await this.delivery.send({ endpointId: endpoint.id, event }, { db });
  }

  private event(tenantId: number, type: WebhookEventType, data: Record<string, unknown>): WebhookEvent {
    return { id: newEventId(), type, version: 1, created_at: this.deps.clock.now().toISOString(), tenant_id: tenantId, data };
  }

  private async endpoint(tenantId: number, id: number): Promise<EndpointRow> {
    const row = await findEndpoint(this.deps.db, tenantId, id);
    if (!row) throw new HttpError(404, 'webhooks.not_found');
    return row;
  }

  /** One attempt: logged whatever happens; anything but a 2xx answer throws, so the queue retries. */
  private async attempt({ endpointId, event }: DeliveryJob): Promise<void> {
    const { db, clock, secrets } = this.deps;
    const endpoint = await findEndpointById(db, endpointId);
    // A deleted or switched-off endpoint gets nothing more (a test event still goes to a switched-off one).
    if (!endpoint || (!endpoint.enabled && event.type !== 'webhook.test')) return;
    const now = clock.now();
    // The signed timestamp is when the request leaves, on the wall clock the receiver compares it
    // with (its replay window), not the panel's business clock.
    const sentAt = new Date();
    const body = JSON.stringify(event);
    const signatures = [new Webhook(secrets.open(endpoint.secret_sealed)).sign(event.id, sentAt, body)];
    if (endpoint.previous_secret_sealed && endpoint.previous_secret_until && new Date(endpoint.previous_secret_until) > now) {
      signatures.push(new Webhook(secrets.open(endpoint.previous_secret_sealed)).sign(event.id, sentAt, body));
    }
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Berth-Webhooks/1',
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signatures.join(' '),
    };
    const attempt = (await countAttempts(db, endpointId, event.id)) + 1;
    const log = (outcome: { status: 'delivered' | 'failed'; code?: number; excerpt?: string; error?: string }) =>
      insertDelivery(db, {
        endpoint_id: endpointId,
        event_id: event.id,
        event_type: event.type,
        payload: JSON.stringify(event),
        attempt,
        status: outcome.status,
        response_code: outcome.code ?? null,
        response_excerpt: outcome.excerpt ?? null,
        error: outcome.error ?? null,
        created_at: clock.now(),
      });
    let answer: { code: number; excerpt: string };
    try {
      answer = await this.post(endpoint.url, headers, body);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await log({ status: 'failed', error: message });
      throw error instanceof AddressRefused ? error : new Error(`${endpoint.url}: ${message}`);
    }
    const ok = answer.code >= 200 && answer.code < 300;
    await log({ status: ok ? 'delivered' : 'failed', code: answer.code, excerpt: answer.excerpt });
    if (!ok) throw new Error(`${endpoint.url} answered ${answer.code}`);
  }

  /** POSTs to the address the guard checked (never resolved again), following no redirect. */
  private async post(url: string, headers: Record<string, string>, body: string): Promise<{ code: number; excerpt: string }> {
    const target = new URL(url);
    const { address, family } = await this.deps.guard.resolve(target.hostname);
    const pinned: LookupFunction = (_host, options, callback) => {
      if ((options as { all?: boolean }).all)
        (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
      else callback(null, address, family);
    };
    const client = target.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = client.request(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          lookup: pinned,
          timeout: ATTEMPT_TIMEOUT_MS,
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            if (size < EXCERPT_BYTES) chunks.push(chunk);
            size += chunk.length;
            if (size >= EXCERPT_BYTES) response.destroy();
          });
          const done = () =>
            resolve({ code: response.statusCode ?? 0, excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8') });
          response.on('end', done);
          response.on('close', done);
          response.on('error', done);
        },
      );
      request.on('timeout', () => request.destroy(new Error(`no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`)));
      request.on('error', reject);
      request.end(body);
    });
  }
}
