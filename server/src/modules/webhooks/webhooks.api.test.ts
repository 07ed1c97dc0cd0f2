import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookDelivery, WebhookEvent } from '@berth/contracts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { startDnsWorld, type DnsWorld } from '../../../test/dns-world.ts';
import { addTenant, addUser, superAdmin, type Caller } from '../../../test/hosting.ts';

/**
 * Signed outgoing webhooks against receivers on loopback: every signature checked with the
 * Standard Webhooks library's own verifier, retries logged attempt by attempt, rotation, replay,
 * and the address guard (only 127.0.0.1 is allowed here, by WEBHOOK_ALLOWED_RANGES; 127.0.0.2
 * stands for every address that is not). No packet leaves loopback.
 */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  received: Received[];
  /** Answers with these statuses in turn, then 200. */
  failFirst(statuses: number[]): void;
  close(): Promise<void>;
}

async function startReceiver(host: string): Promise<Receiver> {
  const received: Received[] = [];
  let failures: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = failures.shift() ?? 200;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'thanks' : `not now (${'x'.repeat(2000)})`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/hook`,
    received,
    failFirst: (statuses) => void (failures = [...statuses]),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let t: TestApp;
let dns: DnsWorld;
let admin: Caller;
let hostAdmin: Caller;
let otherAdmin: Caller;
let customer: Caller;
let receiver: Receiver;
let forbidden: Receiver;

/** Lets retry pauses pass (the job queue keeps them as start_after) and runs what is due. */
async function drain(): Promise<void> {
  for (let round = 0; round < 5; round++) {
    await sql`update pgboss.job set start_after = now() where state = 'retry'`.execute(t.db);
    await t.services.jobs.idle();
  }
}

const verify = (secret: string, got: Received) =>
  new Webhook(secret).verify(got.body, {
    'webhook-id': String(got.headers['webhook-id']),
    'webhook-timestamp': String(got.headers['webhook-timestamp']),
    'webhook-signature': String(got.headers['webhook-signature']),
  }) as WebhookEvent;

async function addEndpoint(caller: Caller, url: string, events = ['customer.created']) {
  const answer = await caller({ method: 'POST', url: '/api/system/webhooks', payload: { url, events, description: 'CRM' } });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json<{ data: { id: number; secret: string } }>().data;
}

const deliveries = async (caller: Caller, id: number) => {
  const answer = await caller({ method: 'GET', url: `/api/system/webhooks/${id}/deliveries` });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json<{ data: WebhookDelivery[] }>().data;
};

beforeAll(async () => {
  dns = await startDnsWorld();
  t = await createTestApp({ env: { WEBHOOK_ALLOWED_RANGES: '127.0.0.1/32', DNS_RESOLVERS: dns.address } });
  admin = (await superAdmin(t)).call;
  const harbor = await addTenant(t, 'Harbor', 'harbor.test');
  const other = await addTenant(t, 'Other', 'other.test');
  hostAdmin = (await addUser(t, harbor, 'admin@harbor.test', 'host_admin')).call;
  otherAdmin = (await addUser(t, other, 'admin@other.test', 'host_admin')).call;
  customer = (await addUser(t, harbor, 'cleo@harbor.test')).call;
  [receiver, forbidden] = await Promise.all([startReceiver('127.0.0.1'), startReceiver('127.0.0.2')]);
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
  await forbidden?.close();
  await dns?.close();
});

describe('webhooks', () => {
  it('signs customer.created with the endpoint secret, shown once; customers may not manage endpoints', async () => {
    const endpoint = await addEndpoint(admin, receiver.url);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const listed = await admin({ method: 'GET', url: '/api/system/webhooks' });
    expect(listed.body).not.toContain(endpoint.secret);
    expect(listed.json().data).toEqual([expect.objectContaining({ id: endpoint.id, url: receiver.url, events: ['customer.created'] })]);
    expect((await customer({ method: 'GET', url: '/api/system/webhooks' })).statusCode).toBe(403);

    const created = await admin({
      method: 'POST',
      url: '/api/system/customers',
      payload: {
        email: 'hooked@example.net',
        contact: { given_name: 'Hook', sn: 'Ed' },
        password: 'a long enough passphrase 2026',
        language: 'en',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    await t.services.jobs.idle();
    expect(receiver.received).toHaveLength(1);
    const event = verify(endpoint.secret, receiver.received[0]!);
    expect(event).toMatchObject({
      type: 'customer.created',
      version: 1,
      tenant_id: 1,
      data: { customer: { email: 'hooked@example.net', name: 'Hook Ed' } },
    });
    expect(receiver.received[0]!.headers['webhook-id']).toBe(event.id);
    expect(() => verify('whsec_' + Buffer.alloc(24, 1).toString('base64'), receiver.received[0]!)).toThrow();
    expect((await deliveries(admin, endpoint.id)).map((d) => [d.event_type, d.attempt, d.status, d.response_code])).toEqual([
      ['customer.created', 1, 'delivered', 200],
    ]);
    await admin({ method: 'DELETE', url: `/api/system/webhooks/${endpoint.id}` });
  });

  it('a receiver that fails twice gets the event three times; the log shows all three; replay sends it again', async () => {
    receiver.received.length = 0;
    const endpoint = await addEndpoint(hostAdmin, receiver.url);
    receiver.failFirst([500, 503]);
    const test = await hostAdmin({ method: 'POST', url: `/api/system/webhooks/${endpoint.id}/test` });
    expect(test.statusCode).toBe(202);
    await drain();
    expect(receiver.received).toHaveLength(3);
    const ids = receiver.received.map((got) => verify(endpoint.secret, got).id);
    expect(new Set(ids).size).toBe(1);
    const log = await deliveries(hostAdmin, endpoint.id);
    expect(log.map((d) => [d.attempt, d.status, d.response_code])).toEqual([
      [3, 'delivered', 200],
      [2, 'failed', 503],
      [1, 'failed', 500],
    ]);
    expect(log[1]!.response_excerpt).toHaveLength(1024);
    expect(log[0]!.response_excerpt).toBe('thanks');

    // Another tenant's admin sees nothing of it.
    expect((await otherAdmin({ method: 'GET', url: `/api/system/webhooks/${endpoint.id}/deliveries` })).statusCode).toBe(404);
    expect((await otherAdmin({ method: 'POST', url: `/api/system/webhooks/deliveries/${log[0]!.id}/replay` })).statusCode).toBe(404);

    const replay = await hostAdmin({ method: 'POST', url: `/api/system/webhooks/deliveries/${log[0]!.id}/replay` });
    expect(replay.statusCode).toBe(202);
    await drain();
    expect(receiver.received).toHaveLength(4);
    expect(verify(endpoint.secret, receiver.received[3]!).id).toBe(ids[0]);
    expect((await deliveries(hostAdmin, endpoint.id))[0]).toMatchObject({ attempt: 4, status: 'delivered' });
  });

  it('after a rotation both the new and the old secret verify, for 24 hours', async () => {
    receiver.received.length = 0;
    const endpoint = await addEndpoint(otherAdmin, receiver.url);
    const rotated = await otherAdmin({ method: 'POST', url: `/api/system/webhooks/${endpoint.id}/rotate` });
    expect(rotated.statusCode).toBe(200);
    const { secret, previous_secret_until } = rotated.json<{ data: { secret: string; previous_secret_until: string } }>().data;
    expect(secret).not.toBe(endpoint.secret);
    expect(new Date(previous_secret_until).getTime() - t.clock.now().getTime()).toBe(24 * 3600 * 1000);
    await otherAdmin({ method: 'POST', url: `/api/system/webhooks/${endpoint.id}/test` });
    await t.services.jobs.idle();
    const got = receiver.received[0]!;
    expect(String(got.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verify(secret, got).type).toBe('webhook.test');
    expect(verify(endpoint.secret, got).type).toBe('webhook.test');

    t.clock.advance(24 * 3600 * 1000 + 1000);
    await otherAdmin({ method: 'POST', url: `/api/system/webhooks/${endpoint.id}/test` });
    await t.services.jobs.idle();
    expect(verify(secret, receiver.received[1]!).type).toBe('webhook.test');
    expect(() => verify(endpoint.secret, receiver.received[1]!)).toThrow();
  });

  it('refuses addresses outside the allowed ranges, by literal and by name, and never follows a rebinding name', async () => {
    forbidden.received.length = 0;
    dns.setA('inside.example', () => ['127.0.0.2']);
    let answers = 0;
    // First 127.0.0.1 (allowed), then 127.0.0.2: what was checked is where the request goes.
    dns.setA('rebind.example', () => (answers++ === 0 ? ['127.0.0.1'] : ['127.0.0.2']));
    const port = new URL(forbidden.url).port;
    const literal = await addEndpoint(admin, forbidden.url, ['customer.created']);
    const named = await addEndpoint(admin, `http://inside.example:${port}/hook`, ['customer.created']);
    for (const id of [literal.id, named.id]) await admin({ method: 'POST', url: `/api/system/webhooks/${id}/test` });
    await t.services.jobs.idle();
    expect((await deliveries(admin, literal.id))[0]).toMatchObject({
      status: 'failed',
      response_code: null,
      error: '127.0.0.2 is a loopback address: webhooks go to public addresses only',
    });
    expect((await deliveries(admin, named.id))[0]!.error).toBe(
      'inside.example (127.0.0.2) is a loopback address: webhooks go to public addresses only',
    );

    receiver.received.length = 0;
    const rebinding = await addEndpoint(admin, `http://rebind.example:${new URL(receiver.url).port}/hook`, ['customer.created']);
    await admin({ method: 'POST', url: `/api/system/webhooks/${rebinding.id}/test` });
    await t.services.jobs.idle();
    expect(dns.aQuestions('rebind.example')).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(`rebind.example:${new URL(receiver.url).port}`);
    expect(forbidden.received).toHaveLength(0);
  });

  it('reaches a private range only once the super admin allows it on the page, and stops when it is removed', async () => {
    const url = '/api/system/webhooks/allowed-ranges';
    expect((await hostAdmin({ method: 'GET', url })).statusCode).toBe(403);
    expect((await hostAdmin({ method: 'PUT', url, payload: { ranges: ['127.0.0.2/32'] } })).statusCode).toBe(403);
    expect((await admin({ method: 'GET', url })).json().data).toEqual({ ranges: [], environment: ['127.0.0.1/32'] });
    // Nothing but addresses and ranges: what would reach a file or a query is refused on its line.
    for (const bad of ['10.0.0.0/33', '127.0.0.1;rm', '{"a":1}', '10.0.0.0/8\n::1', '../etc', 'localhost', '1.2.3.4/8/8', ':::1']) {
      const answer = await admin({ method: 'PUT', url, payload: { ranges: ['10.1.0.0/16', bad] } });
      expect(answer.statusCode, bad).toBe(422);
      expect(Object.keys(answer.json().errors), bad).toEqual(['ranges.1']);
    }
    expect((await admin({ method: 'GET', url })).json().data.ranges).toEqual([]);

    forbidden.received.length = 0;
    const endpoint = await addEndpoint(admin, forbidden.url, ['customer.created']);
    const saved = await admin({ method: 'PUT', url, payload: { ranges: ['127.0.0.2/32', 'FD00::/8', '127.0.0.2/32'] } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.ranges).toEqual(['127.0.0.2/32', 'fd00::/8']);
    await admin({ method: 'POST', url: `/api/system/webhooks/${endpoint.id}/test` });
    await t.services.jobs.idle();
    expect(forbidden.received).toHaveLength(1);
    expect((await deliveries(admin, endpoint.id))[0]).toMatchObject({ status: 'delivered', response_code: 200 });

    await admin({ method: 'PUT', url, payload: { ranges: [] } });
    await admin({ method: 'POST', url: `/api/system/webhooks/${endpoint.id}/test` });
    await t.services.jobs.idle();
    expect(forbidden.received).toHaveLength(1);
    expect((await deliveries(admin, endpoint.id))[0]!.error).toBe('127.0.0.2 is a loopback address: webhooks go to public addresses only');
    const audit = await t.db
      .selectFrom('audit_log')
      .select('data')
      .where('action', '=', 'webhooks.allowed_ranges_set')
      .orderBy('id')
      .execute();
    expect(audit.map((row) => row.data)).toEqual([
      { added: '127.0.0.2/32, fd00::/8', removed: '' },
      { added: '', removed: '127.0.0.2/32, fd00::/8' },
    ]);
    await admin({ method: 'DELETE', url: `/api/system/webhooks/${endpoint.id}` });
  });

  it('checks the address field and holds the limit of 10 endpoints when 30 are added at once', async () => {
    for (const url of ['ftp://example.net/', 'http://user:pass@example.net/', 'javascript:alert(1)', 'http://a\n.example/', 'not a url']) {
      const answer = await hostAdmin({ method: 'POST', url: '/api/system/webhooks', payload: { url, events: ['order.paid'] } });
      expect(answer.statusCode, url).toBe(422);
      expect(Object.keys(answer.json().errors)).toEqual(['url']);
    }
    const none = await hostAdmin({ method: 'POST', url: '/api/system/webhooks', payload: { url: receiver.url, events: [] } });
    expect(none.statusCode).toBe(422);
    const unknown = await hostAdmin({
      method: 'POST',
      url: '/api/system/webhooks',
      payload: { url: receiver.url, events: ['webhook.test'] },
    });
    expect(unknown.statusCode).toBe(422);

    const before = (await hostAdmin({ method: 'GET', url: '/api/system/webhooks' })).json().data.length as number;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        hostAdmin({ method: 'POST', url: '/api/system/webhooks', payload: { url: `${receiver.url}?n=${i}`, events: ['order.paid'] } }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(10 - before);
    expect(answers.filter((a) => a.statusCode === 422)).toHaveLength(20 + before);
    expect((await hostAdmin({ method: 'GET', url: '/api/system/webhooks' })).json().data).toHaveLength(10);
  });
});
