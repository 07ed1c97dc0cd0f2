import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookEventDataSchemas, type WebhookEvent, type WebhookEventType } from '@berth/contracts';
import { domainExpiringIn as expiringDomain } from '../../../test/billing.ts';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { addDomainWithUser, callerFor, type Caller } from '../../../test/hosting.ts';
import { mailsTo } from '../../../test/outbox.ts';
import { balance, giveCredit, ledgerConsistent, ok, shopTenant } from '../../../test/shop.ts';
import { JobQueue } from '../jobs/queue.ts';

const DAY = 24 * 60 * 60 * 1000;
let t: TestApp;
let shop: Awaited<ReturnType<typeof shopTenant>>;
/** The reseller's webhook receiver on loopback: every billing event, as delivered. */
const delivered: { headers: Record<string, string>; body: string }[] = [];
let receiver: Server;
let secret = '';

beforeAll(async () => {
  t = await createTestApp({ env: { WEBHOOK_ALLOWED_RANGES: '127.0.0.1/32' } });
  shop = await shopTenant(t, 'harbor', { customers: 5 });
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      delivered.push({ headers: request.headers as Record<string, string>, body });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const endpoint = await ok(
    shop.admin.call,
    {
      method: 'POST',
      url: '/api/system/webhooks',
      payload: {
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
        events: ['domain.created', 'domain.renewed', 'domain.expired', 'invoice.overdue', 'service.suspended', 'service.unsuspended'],
      },
    },
    201,
  );
  secret = endpoint.data.secret;
  // The shop's prices (.com renews at 14.90 net, 18.03 with 21 % VAT) exist once the shop is read.
  await ok(shop.customer.call, { method: 'GET', url: '/api/shop/domain-check?name=probe.com' });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

const domainExpiringIn = (ownerId: number, name: string, days: number) => expiringDomain(t, shop.admin.call, ownerId, name, days);

const domainRow = (id: number) =>
  t.db.selectFrom('domains').select(['expire_at', 'auto_renew']).where('id', '=', id).executeTakeFirstOrThrow();
const renewalOrders = (userId: number) =>
  t.db.selectFrom('orders').select(['id', 'status', 'idempotency_key']).where('user_id', '=', userId).orderBy('id').execute();
const pass = async () => {
  const done = await t.services.billing.runOnce();
  await JobQueue.idleAll();
  return done;
};
const subjects = async (email: string) => (await mailsTo(t.db, email)).map((mail) => mail.subject);

describe('auto-renewal', () => {
  it('charges a domain due for renewal once from its owner’s credit, however many passes and jobs race', async () => {
    const owner = shop.customers[0]!;
    await giveCredit(shop.admin.call, owner.user.id, 10_000);
    const id = await domainExpiringIn(owner.user.id, 'racing.com', 10);
    const before = await domainRow(id);

    // Two instances' passes and ten jobs for the same expiry at the same instant.
    const job = { domainId: id, expireAt: new Date(before.expire_at as Date).toISOString() };
    const outcomes = await Promise.all([
      t.services.billing.runOnce(),
      t.services.billing.runOnce(),
      ...Array.from({ length: 10 }, () => t.services.billing.renewDomain(job).catch((error: unknown) => String(error))),
    ]);
    await JobQueue.idleAll();
    expect(outcomes.filter((outcome) => outcome === 'paid').length).toBeGreaterThanOrEqual(1);
    expect(outcomes.some((outcome) => typeof outcome === 'string' && outcome.startsWith('Error'))).toBe(false);

    const orders = await renewalOrders(owner.user.id);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ status: 'paid', idempotency_key: `auto-renew:domain:${id}:${job.expireAt.slice(0, 10)}` });
    expect(await balance(owner.call)).toBe(10_000 - 1_803);
    await ledgerConsistent(t, owner.user.id);
    const after = await domainRow(id);
    expect(new Date(after.expire_at as Date).getUTCFullYear()).toBe(new Date(before.expire_at as Date).getUTCFullYear() + 1);
    expect(await subjects(owner.user.email)).toEqual(['racing.com at harbor Hosting was renewed']);

    // Renewed: the next passes find nothing due for this domain.
    expect((await pass()).renewals).toBe(0);
    expect(await renewalOrders(owner.user.id)).toHaveLength(1);
  });

  it('leaves a domain whose owner switched auto-renewal off, and reminds them 30 days ahead instead', async () => {
    const owner = shop.customers[3]!;
    await giveCredit(shop.admin.call, owner.user.id, 10_000);
    const id = await domainExpiringIn(owner.user.id, 'manual.com', 10);
    const far = await domainExpiringIn(owner.user.id, 'manual-later.com', 25);
    for (const domain of [id, far]) {
      const answer = await ok(owner.call, { method: 'PATCH', url: `/api/host/domain/${domain}`, payload: { auto_renew: false } });
      expect(answer.data.auto_renew).toBe(false);
    }
    expect((await domainRow(id)).auto_renew).toBe(false);
    await pass();
    expect(await renewalOrders(owner.user.id)).toEqual([]);
    expect(await balance(owner.call)).toBe(10_000);
    await t.services.expiry.runOnce(t.clock.now());
    expect((await subjects(owner.user.email)).sort()).toEqual([
      'Your domain manual-later.com at harbor Hosting expires in 25 days',
      'Your domain manual.com at harbor Hosting expires in 10 days',
    ]);
  });
});

describe('dunning and suspension', () => {
  let owner: { user: { id: number; email: string; tenant_id: number }; call: Caller };
  let domainId: number;
  let invoiceId: number;
  const start = () => t.clock.now().getTime();
  let issuedAt = 0;

  it('issues an unpaid invoice due at expiry when the credit does not cover the renewal', async () => {
    owner = shop.customers[1]!;
    domainId = await domainExpiringIn(owner.user.id, 'unpaid.com', 10);
    await addDomainWithUser(t, owner.user.id, 'box@unpaid-mail.com', 'mailbox password 2026');
    issuedAt = start();
    expect((await pass()).renewals).toBe(1);
    const invoice = await t.db.selectFrom('invoices').selectAll().where('user_id', '=', owner.user.id).executeTakeFirstOrThrow();
    invoiceId = invoice.id;
    expect(invoice).toMatchObject({ status: 'unpaid', payment_provider: 'credit', instructions: null });
    expect(new Date(invoice.due_at as Date).getTime()).toBe(new Date((await domainRow(domainId)).expire_at as Date).getTime());
    expect(await subjects(owner.user.email)).toEqual(['Please pay the renewal of unpaid.com at harbor Hosting']);
    const dashboard = (await ok(owner.call, { method: 'GET', url: '/api/dashboard' })).data;
    expect(dashboard.billing).toEqual({
      suspended_at: null,
      unpaid: [
        { id: invoiceId, number: invoice.number, amount: '€18.03', due_at: new Date(invoice.due_at as Date).toISOString(), overdue: false },
      ],
    });
  });

  it('reminds 1, 3 and 7 days after, once each, trying the credit first', async () => {
    for (const [days, expected] of [
      [1, 1],
      [2, 1],
      [3, 2],
      [7, 3],
    ] as const) {
      t.clock.set(new Date(issuedAt + days * DAY + 60_000));
      await Promise.all([pass(), pass()]);
      const steps = await t.db.selectFrom('dunning_notices').select('step').where('invoice_id', '=', invoiceId).execute();
      expect(steps.map((row) => row.step).sort(), `day ${days}`).toEqual([1, 2, 3].slice(0, expected));
    }
    const reminders = (await subjects(owner.user.email)).filter((subject) => subject.startsWith('Reminder'));
    expect(reminders).toEqual(Array(3).fill('Reminder: the renewal of unpaid.com at harbor Hosting is unpaid'));
    const suspended = await t.db.selectFrom('users').select('suspended_at').where('id', '=', owner.user.id).executeTakeFirstOrThrow();
    expect(suspended.suspended_at).toBeNull();
  });

  it('suspends the owner once the grace period after the due date has passed: sites, FTP and mailbox logins stop, delivery goes on', async () => {
    const due = new Date((await domainRow(domainId)).expire_at as Date).getTime();
    t.clock.set(new Date(due + 13 * DAY));
    expect((await pass()).suspended).toBe(0);
    t.clock.set(new Date(due + 14 * DAY + 1000));
    const [first, second] = await Promise.all([pass(), pass()]);
    expect(first.suspended + second.suspended).toBe(1);

    const user = await t.db.selectFrom('users').select('suspended_at').where('id', '=', owner.user.id).executeTakeFirstOrThrow();
    expect(user.suspended_at).not.toBeNull();
    expect(await subjects(owner.user.email)).toContain('Your services at harbor Hosting are suspended');
    const mailbox = await t.db
      .selectFrom('mail.mailboxes' as never)
      .select(['email' as never, 'suspended' as never])
      .where('email' as never, '=', 'box@unpaid-mail.com' as never)
      .executeTakeFirstOrThrow();
    expect(mailbox).toEqual({ email: 'box@unpaid-mail.com', suspended: true });
    const dashboard = (await ok(owner.call, { method: 'GET', url: '/api/dashboard' })).data;
    expect(dashboard.billing.suspended_at).not.toBeNull();
    expect(dashboard.billing.unpaid).toMatchObject([{ id: invoiceId, overdue: true }]);
    // The panel still lets them in: they must be able to pay.
    await ok(owner.call, { method: 'GET', url: '/api/user' });
    const audit = await t.db.selectFrom('audit_log').select('action').where('action', '=', 'customer.suspended').execute();
    expect(audit).toHaveLength(1);
  });

  it('unsuspends when the invoice is paid: 30 presses of "pay", one payment', async () => {
    const pay = () => owner.call({ method: 'POST', url: `/api/account/invoices/${invoiceId}/pay`, payload: { payment: 'credit' } });
    const short = await pay();
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.payment[0]).toContain('Insufficient credit');

    await giveCredit(shop.admin.call, owner.user.id, 5_000);
    const answers = await Promise.all(Array.from({ length: 30 }, pay));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, ...Array(29).fill(409)]);
    expect(await balance(owner.call)).toBe(5_000 - 1_803);
    await ledgerConsistent(t, owner.user.id);

    const user = await t.db.selectFrom('users').select('suspended_at').where('id', '=', owner.user.id).executeTakeFirstOrThrow();
    expect(user.suspended_at).toBeNull();
    const mailbox = await t.db
      .selectFrom('mail.mailboxes' as never)
      .select(['suspended' as never])
      .where('email' as never, '=', 'box@unpaid-mail.com' as never)
      .executeTakeFirstOrThrow();
    expect(mailbox).toEqual({ suspended: false });
    const dashboard = (await ok(owner.call, { method: 'GET', url: '/api/dashboard' })).data;
    expect(dashboard.billing).toEqual({ suspended_at: null, unpaid: [] });
    const notes = await t.db
      .selectFrom('notifications')
      .select('text')
      .where('user_id', '=', owner.user.id)
      .orderBy('id', 'desc')
      .limit(1)
      .execute();
    expect(notes[0]?.text).toBe('Thank you: your services are running again.');
  });

  it('lets nobody pay or see another user’s invoice', async () => {
    const other = shop.customers[2]!;
    const answer = await other.call({ method: 'POST', url: `/api/account/invoices/${invoiceId}/pay`, payload: { payment: 'credit' } });
    expect(answer.statusCode).toBe(404);
    const bad = await owner.call({ method: 'POST', url: `/api/account/invoices/${invoiceId}/pay`, payload: { payment: 'stripe' } });
    expect(bad.statusCode).toBe(422);
  });
});

describe('an expired domain that is not renewed', () => {
  const served = async (id: number, name: string) => ({
    dns: Number(
      (
        await t.db
          .selectFrom('pdns.records' as never)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('domain_id' as never, '=', id as never)
          .executeTakeFirstOrThrow()
      ).n,
    ),
    mail: (
      await t.db
        .selectFrom('mail.domains' as never)
        .selectAll()
        .where('domain' as never, '=', name as never)
        .execute()
    ).length,
  });

  it('is announced once, stops being served (DNS, mail) after the grace period, and is served again once renewed', async () => {
    const owner = shop.customers[2]!;
    const id = await domainExpiringIn(owner.user.id, 'lapsing.com', -1);
    expect(await served(id, 'lapsing.com')).toEqual({ dns: expect.any(Number), mail: 1 });
    expect((await served(id, 'lapsing.com')).dns).toBeGreaterThan(3);

    await Promise.all([pass(), pass()]);
    const expiredMails = (await subjects(owner.user.email)).filter((subject) => subject.includes('has expired'));
    expect(expiredMails).toEqual(['Your domain lapsing.com at harbor Hosting has expired']);
    expect((await served(id, 'lapsing.com')).mail).toBe(1);

    const expireAt = new Date((await domainRow(id)).expire_at as Date).getTime();
    t.clock.set(new Date(expireAt + 14 * DAY - 1000));
    expect((await pass()).lapsed).toBe(0);
    t.clock.set(new Date(expireAt + 14 * DAY + 1000));
    const [first, second] = await Promise.all([pass(), pass()]);
    expect(first.lapsed + second.lapsed).toBe(1);
    expect(await served(id, 'lapsing.com')).toEqual({ dns: 0, mail: 0 });
    expect(await subjects(owner.user.email)).toContain('lapsing.com at harbor Hosting is no longer served');
    const audit = await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'domain.lapsed')
      .where('target_id', '=', String(id))
      .execute();
    expect(audit).toHaveLength(1);

    // Renewed in the shop: served again in the same transaction (new sessions: the clock moved weeks on).
    await giveCredit(await callerFor(t, shop.admin.user), owner.user.id, 5_000);
    const bought = await ok(
      await callerFor(t, owner.user),
      {
        method: 'POST',
        url: '/api/shop/checkout',
        payload: { payment: 'credit', idempotency_key: 'renew-lapsed', item: { kind: 'domain_renew', domain_id: id, period_months: 12 } },
      },
      201,
    );
    expect(bought.data.status).toBe('paid');
    expect((await served(id, 'lapsing.com')).dns).toBeGreaterThan(3);
    expect((await served(id, 'lapsing.com')).mail).toBe(1);
  });
});

describe('a renewal paid another way', () => {
  it('cancels the unpaid auto-renewal when the customer renews the domain in the shop: no reminders, no suspension', async () => {
    const owner = shop.customers[4]!;
    const admin = await callerFor(t, shop.admin.user);
    const customer = await callerFor(t, owner.user);
    const expireAt = new Date(t.clock.now().getTime() + 10 * DAY);
    const created = await ok(
      admin,
      {
        method: 'POST',
        url: '/api/host/domain',
        payload: { name: 'elsewhere.com', owner_id: owner.user.id, expire_at: expireAt.toISOString() },
      },
      201,
    );
    await pass();
    const auto = await t.db.selectFrom('invoices').select(['id', 'status']).where('user_id', '=', owner.user.id).executeTakeFirstOrThrow();
    expect(auto.status).toBe('unpaid');

    await giveCredit(admin, owner.user.id, 5_000);
    await ok(
      customer,
      {
        method: 'POST',
        url: '/api/shop/checkout',
        payload: {
          payment: 'credit',
          idempotency_key: 'renew-myself',
          item: { kind: 'domain_renew', domain_id: created.data.id, period_months: 12 },
        },
      },
      201,
    );
    const after = await t.db.selectFrom('invoices').select('status').where('id', '=', auto.id).executeTakeFirstOrThrow();
    expect(after.status).toBe('cancelled');
    t.clock.set(new Date(expireAt.getTime() + 15 * DAY));
    const done = await pass();
    expect(done.suspended).toBe(0);
    const steps = await t.db.selectFrom('dunning_notices').select('step').where('invoice_id', '=', auto.id).execute();
    expect(steps).toEqual([]);
    const user = await t.db.selectFrom('users').select('suspended_at').where('id', '=', owner.user.id).executeTakeFirstOrThrow();
    expect(user.suspended_at).toBeNull();
  });
});

describe('a domain bought in the shop', () => {
  it('is registered from the credit', async () => {
    const buyer = await callerFor(t, shop.customers[0]!.user);
    const bought = await ok(
      buyer,
      {
        method: 'POST',
        url: '/api/shop/checkout',
        payload: {
          payment: 'credit',
          idempotency_key: 'buy-one-domain',
          item: { kind: 'domain_register', name: 'bought-in-shop.com', period_months: 12 },
        },
      },
      201,
    );
    expect(bought.data.status).toBe('paid');
  });
});

describe('the reseller’s webhooks', () => {
  it('got every billing event, signed, each body as its contract schema says', async () => {
    await JobQueue.idleAll();
    const events = delivered.map((got) => {
      const event = new Webhook(secret).verify(got.body, {
        'webhook-id': got.headers['webhook-id'] ?? '',
        'webhook-timestamp': got.headers['webhook-timestamp'] ?? '',
        'webhook-signature': got.headers['webhook-signature'] ?? '',
      }) as WebhookEvent;
      expect(webhookEventDataSchemas[event.type as WebhookEventType].safeParse(event.data).success, event.type).toBe(true);
      return event;
    });
    const types = new Set(events.map((event) => event.type));
    expect([...types].sort()).toEqual([
      'domain.created',
      'domain.expired',
      'domain.renewed',
      'invoice.overdue',
      'service.suspended',
      'service.unsuspended',
    ]);
    // A domain bought in the shop is announced like one an admin adds.
    const created = events
      .filter((event) => event.type === 'domain.created')
      .map((event) => (event.data as { domain: { name: string } }).domain.name);
    expect(created).toContain('bought-in-shop.com');
    expect(created).toContain('racing.com');
    const overdue = events.filter((event) => event.type === 'invoice.overdue').map((event) => (event.data as { step: number }).step);
    expect(overdue.sort()).toEqual([1, 2, 3]);
    // Renewed automatically (racing, unpaid once paid) or in the shop (lapsing, elsewhere): each announced once.
    const renewed = events
      .filter((event) => event.type === 'domain.renewed')
      .map((event) => (event.data as { domain: { name: string } }).domain.name);
    expect(renewed.sort()).toEqual(['elsewhere.com', 'lapsing.com', 'racing.com', 'unpaid.com']);
    expect(events.filter((event) => event.type === 'service.suspended')).toHaveLength(1);
  });
});
