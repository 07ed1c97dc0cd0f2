import type { ChildProcess } from 'node:child_process';
import type { Resolver } from 'node:dns/promises';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { authenticate } from 'mailauth';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls, type TLSSocket } from 'node:tls';
import { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareMail, startMail, type MailSettings, type RunningMail } from '../../src/daemons/mail.ts';
import { startSmtpReceiver } from '../smtp-receiver.ts';
import { mailHostSettings, mailLogTail, presentedCertificate, sendTo } from '../mail-host.ts';
import { confirmPaid, suspendForNonPayment } from '../billing.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import { addTenant, addUser, callerFor } from '../hosting.ts';
import { within } from '../within.ts';
import { ownChain } from '../own-certificate.ts';
import { CERTIFICATE_KEYS_PURPOSE } from '../../src/modules/certificates/keys.ts';
import { DKIM_KEYS_PURPOSE } from '../../src/modules/dns/dkim.ts';
import { preparePowerDns, resolverFor, startPowerDns, type PowerDnsSettings } from '../../src/daemons/powerdns.ts';
import { freePort } from '../faults/processes.ts';
import { X509Certificate } from 'node:crypto';
import { statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

// Mail that leaves: Postfix's submission ports (587 with STARTTLS required, 465 with TLS) take a
// mailbox's own mail after AUTH with its panel password (Dovecot's SASL), only as the mailbox or a
// forwarder of its domain that leads to it; IMAP and POP3 are offered over TLS too. The
// certificate is the mail host's self-signed one for names without their own; a domain's own is
// presented by the name the client asks for (SNI).

let t: TestApp;
let tenantId: number;
let owner: Awaited<ReturnType<typeof addUser>>;
let mail: RunningMail;
let settings: MailSettings;
let outside: Awaited<ReturnType<typeof startSmtpReceiver>>;
let domainId: number;
let pdns: ChildProcess | undefined;
let dnsDir: string | undefined;
let resolver: Resolver;
const PASSWORD = 'a long mailbox passphrase 77';
const MAILBOX = 'info@send.example';
const OTHER = 'other@send.example';
/** The mail host's own certificate is self-signed here: the clients take it as it is. */
const SELF_SIGNED = { rejectUnauthorized: false };

beforeAll(async () => {
  t = await createTestApp();
  if (!t.databaseUrl) throw new Error('the daemon tests run on PostgreSQL (BERTH_TEST_DB=postgres)');
  tenantId = await addTenant(t, 'Alpha', 'alpha.test');
  // The mail host is at 127.0.0.1: the new zones' MX (and so their SPF, "mx") point there.
  await t.db.updateTable('tenants').set({ hosting_ipv4: '127.0.0.1' }).where('id', '=', tenantId).execute();
  owner = await addUser(t, tenantId, 'owner@alpha.test', 'host_admin');
  domainId = (await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'send.example' } })).json().data.id;
  for (const uid of ['info', 'other']) {
    const made = await owner.call({
      method: 'POST',
      url: `/api/host/domain/${domainId}/users`,
      payload: { uid, password: PASSWORD, password_confirmation: PASSWORD, quota_mb: 50 },
    });
    expect(made.statusCode, made.body).toBe(201);
  }
  // sales@ leads to info@ (info may send as sales), support@ to other@ (info may not).
  for (const [localPart, destination] of [
    ['sales', MAILBOX],
    ['support', OTHER],
  ] as const) {
    const alias = await owner.call({
      method: 'POST',
      url: `/api/host/domain/${domainId}/aliases`,
      payload: { local_part: localPart, destination },
    });
    expect(alias.statusCode, alias.body).toBe(201);
  }
  outside = await startSmtpReceiver();
  // Berth's own name server: the receiver's checks (and rspamd) ask it for the domain's records.
  dnsDir = mkdtempSync(path.join(tmpdir(), 'berth-mail-send-dns-'));
  const dns: PowerDnsSettings = { databaseUrl: t.databaseUrl, address: '127.0.0.1', port: await freePort(), runDir: dnsDir };
  await preparePowerDns(t.db, dns);
  pdns = await startPowerDns(dns);
  resolver = resolverFor(dns.address, dns.port);
  settings = await mailHostSettings(t.databaseUrl, {
    relayPort: outside.port,
    prefix: 'berth-mail-send-',
    rspamdDns: `${dns.address}:${dns.port}`,
  });
  // The mail agent writes each domain's certificate and DKIM key, opening them with the keys derived for them.
  settings.certificateKeys = t.services.secrets.derive(CERTIFICATE_KEYS_PURPOSE).exportKeys();
  settings.dkimKeys = t.services.secrets.derive(DKIM_KEYS_PURPOSE).exportKeys();
  await prepareMail(t.db, settings);
  mail = await startMail(settings);
}, 120_000);
afterAll(async () => {
  await mail?.stop();
  pdns?.kill('SIGTERM');
  if (dnsDir) rmSync(dnsDir, { recursive: true, force: true });
  await outside?.close();
  await t?.close();
  if (settings?.runDir) rmSync(settings.runDir, { recursive: true, force: true });
});

/** A domain of `ownerId` with one mailbox `<uid>@<name>` (the panel password): the mailbox's id. */
async function domainWithMailbox(name: string, ownerId: number, uid: string): Promise<number> {
  const domain = await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name, owner_id: ownerId } });
  expect(domain.statusCode, domain.body).toBe(201);
  const box = await owner.call({
    method: 'POST',
    url: `/api/host/domain/${domain.json().data.id}/users`,
    payload: { uid, password: PASSWORD, password_confirmation: PASSWORD, quota_mb: 50 },
  });
  expect(box.statusCode, box.body).toBe(201);
  return box.json().data.id;
}

/** A customer of the tenant on a plan that lets each mailbox send `mailPerHour` messages an hour, for the next 30 days. */
async function customerWithPlan(email: string, mailPerHour: number) {
  const plan = await owner.call({
    method: 'POST',
    url: '/api/system/shop/plans',
    payload: { title: `Mail ${mailPerHour}`, monthly_price: 100, yearly_price: 1000, mail_per_hour: mailPerHour },
  });
  expect(plan.statusCode, plan.body).toBe(201);
  expect(plan.json().data.mail_per_hour).toBe(mailPerHour);
  const customer = await addUser(t, tenantId, email);
  const now = Date.now();
  await t.db
    .insertInto('hosting_subscriptions')
    .values({
      tenant_id: tenantId,
      user_id: customer.user.id,
      plan_id: plan.json().data.id,
      title: `Mail ${mailPerHour}`,
      order_item_id: null,
      starts_at: new Date(now - 86_400_000),
      expires_at: new Date(now + 30 * 86_400_000),
    })
    .execute();
  return customer;
}

/** Sends one message through a submission port; answers 'sent' or the SMTP code it was refused with. */
async function submit(
  options: { port: number; implicitTls: boolean; user: string; pass: string },
  from: string,
  to: string,
  subject: string,
): Promise<'sent' | number | string> {
  const transport = nodemailer.createTransport({
    host: settings.address,
    port: options.port,
    secure: options.implicitTls,
    requireTLS: !options.implicitTls,
    tls: SELF_SIGNED,
    auth: { user: options.user, pass: options.pass },
    name: 'laptop.test',
  });
  try {
    await transport.sendMail({ from, to, subject, text: `Hello from ${from}` });
    return 'sent';
  } catch (error) {
    return (error as { responseCode?: number; code?: string }).responseCode ?? (error as { code?: string }).code ?? 'failed';
  }
}
const on587 = (user = MAILBOX, pass = PASSWORD) => ({ port: settings.submissionPort, implicitTls: false, user, pass });
const on465 = (user = MAILBOX, pass = PASSWORD) => ({ port: settings.smtpsPort, implicitTls: true, user, pass });

const arrivedOutside = (subject: string) =>
  within(15_000, async () => expect(outside.received.some((message) => message.raw.includes(`Subject: ${subject}`))).toBe(true));

/** A line-based conversation (SMTP, POP3): sends `line` and answers what came back until `done` says so. */
function talk(socket: Socket | TLSSocket, line: string | null, done: (text: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (done(text)) {
        socket.off('data', onData);
        resolve(text);
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    if (line !== null) socket.write(`${line}\r\n`);
  });
}
const smtpReply = (text: string) => /(^|\n)\d{3} [^\n]*\n$/.test(text);
const popReply = (text: string) => /^[+-][^\n]*\n$/.test(text) || /\n\.\r?\n$/.test(text);

describe('submission: a mailbox sends with its panel password', () => {
  it('sends over 587 after STARTTLS, as the mailbox and as a forwarder of its domain that leads to it', async () => {
    expect(await submit(on587(), MAILBOX, 'friend@outside.test', 'Sent as myself')).toBe('sent');
    await arrivedOutside('Sent as myself');
    expect(await submit(on587(), 'sales@send.example', 'friend@outside.test', 'Sent as sales')).toBe('sent');
    await arrivedOutside('Sent as sales');
    const message = outside.received.find((received) => received.raw.includes('Subject: Sent as sales'))!;
    expect(message.mailFrom).toBe('sales@send.example');
    expect(message.rcptTo).toEqual(['friend@outside.test']);
  });

  it('sends over 465 with TLS from the first byte', async () => {
    expect(await submit(on465(), MAILBOX, 'friend@outside.test', 'Sent over 465')).toBe('sent');
    await arrivedOutside('Sent over 465');
  });

  it("refuses another mailbox's address, a forwarder that leads elsewhere, a foreign address and a wrong password", async () => {
    expect(await submit(on587(), OTHER, 'friend@outside.test', 'Not mine')).toBe(553);
    expect(await submit(on587(), 'support@send.example', 'friend@outside.test', 'Not my forwarder')).toBe(553);
    expect(await submit(on465(), 'ceo@bank.example', 'friend@outside.test', 'Forged')).toBe(553);
    expect(await submit(on587(MAILBOX, 'not the password at all'), MAILBOX, 'friend@outside.test', 'Wrong password')).toBe(535);
    expect(outside.received.some((message) => /Subject: (Not mine|Not my forwarder|Forged|Wrong password)/.test(message.raw))).toBe(false);
  });

  it('offers AUTH only after STARTTLS on 587, and relays nothing without it', async () => {
    const socket = connectTcp({ host: settings.address, port: settings.submissionPort });
    try {
      await talk(socket, null, smtpReply);
      const ehlo = await talk(socket, 'EHLO laptop.test', smtpReply);
      expect(ehlo).toContain('STARTTLS');
      expect(ehlo).not.toContain('AUTH');
      expect(await talk(socket, `AUTH PLAIN ${Buffer.from(`\0${MAILBOX}\0${PASSWORD}`).toString('base64')}`, smtpReply)).toMatch(
        /^5\d\d /m,
      );
      expect(await talk(socket, `MAIL FROM:<${MAILBOX}>`, smtpReply)).toMatch(/^530 5\.7\.0 Must issue a STARTTLS command first/m);
    } finally {
      socket.destroy();
    }
  });

  it('offers STARTTLS to other mail servers on port 25', async () => {
    const socket = connectTcp({ host: settings.address, port: settings.smtpPort });
    try {
      await talk(socket, null, smtpReply);
      const ehlo = await talk(socket, 'EHLO mx.outside.test', smtpReply);
      expect(ehlo).toContain('250-STARTTLS');
      // Port 25 takes mail for Berth's mailboxes, never a login.
      expect(ehlo).not.toContain('AUTH');
    } finally {
      socket.destroy();
    }
  });
});

describe('DKIM signing (rspamd as the milter of the listeners mail leaves through)', () => {
  it("signs what a mailbox sends with its domain's key: the receiver's checks, asking Berth's name server, say dkim, spf and dmarc pass", async () => {
    const key = await t.db.selectFrom('dkim_keys').select('selector').where('domain_id', '=', domainId).executeTakeFirstOrThrow();
    for (const [from, subject] of [
      [MAILBOX, 'Signed as the mailbox'],
      ['sales@send.example', 'Signed as a forwarder'],
    ] as const) {
      expect(await submit(on587(), from, 'friend@outside.test', subject)).toBe('sent');
      await arrivedOutside(subject);
      const message = outside.received.find((received) => received.raw.includes(`Subject: ${subject}`))!;
      const checked = await authenticate(message.raw, {
        ip: '127.0.0.1',
        helo: 'mail.berth.localhost',
        sender: message.mailFrom,
        mta: 'mx.outside.test',
        // mailauth's type knows only text answers; MX and address answers come as Node's resolver gives them.
        resolver: ((name: string, type: string) => resolver.resolve(name, type)) as NonNullable<
          Parameters<typeof authenticate>[1]
        >['resolver'],
      });
      expect(
        checked.dkim.results.map((result) => [result.signingDomain, result.selector, result.status.result]),
        mailLogTail(settings),
      ).toEqual([['send.example', key.selector, 'pass']]);
      expect(checked.spf && checked.spf.status.result).toBe('pass');
      expect(checked.dmarc && checked.dmarc.status.result).toBe('pass');
    }
    // The key rspamd reads: its user's alone.
    const file = statSync(path.join(settings.runDir, 'dkim', `send.example.${key.selector}.key`));
    expect(file.mode & 0o777).toBe(0o600);
    expect(file.uid).toBe(Number(execFileSync('id', ['-u', '_rspamd'], { encoding: 'utf8' }).trim()));
  });

  it("writes a new domain's key for rspamd at once, and removes it with the domain", async () => {
    const made = await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'fresh.example' } });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data.id;
    const key = await t.db.selectFrom('dkim_keys').select('selector').where('domain_id', '=', id).executeTakeFirstOrThrow();
    const file = path.join(settings.runDir, 'dkim', `fresh.example.${key.selector}.key`);
    const map = () => readFileSync(path.join(settings.runDir, 'dkim', 'selectors.map'), 'utf8');
    await within(10_000, async () => expect(existsSync(file), mailLogTail(settings)).toBe(true));
    expect(map()).toContain(`fresh.example ${key.selector}\n`);
    const deleted = await owner.call({ method: 'DELETE', url: `/api/host/domain/${id}?confirm=fresh.example` });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await within(10_000, async () => expect(existsSync(file)).toBe(false));
    expect(map()).not.toContain('fresh.example');
  });

  it('leaves mail arriving from outside unsigned', async () => {
    expect(await sendTo(settings, OTHER, 'From the outside', { from: 'someone@send.example' })).toBe('sent');
    await within(10_000, async () => expect(await inbox(OTHER, PASSWORD)).toContain('From the outside'));
    const client = await imaps(OTHER, PASSWORD);
    try {
      const lock = await client.getMailboxLock('INBOX');
      try {
        const raw: string[] = [];
        for await (const message of client.fetch('1:*', { source: true })) raw.push(message.source?.toString('utf8') ?? '');
        const arrived = raw.find((text) => text.includes('Subject: From the outside'));
        expect(arrived).toBeDefined();
        expect(arrived).not.toMatch(/^DKIM-Signature:/im);
      } finally {
        lock.release();
      }
    } finally {
      await client.logout();
    }
  });
});

describe("outbound limits (the owner's plan: messages each mailbox sends an hour)", () => {
  it('lets exactly 10 of 30 messages sent at the same instant leave against a limit of 10, defers the rest, and tells the owner and the admins once', async () => {
    const sender = await customerWithPlan('bulk-owner@alpha.test', 10);
    const now = Date.now();
    const boxId = await domainWithMailbox('bulk.example', sender.user.id, 'news');
    const BULK = 'news@bulk.example';

    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => submit(on587(BULK, PASSWORD), BULK, 'friend@outside.test', `Bulk ${i}`)),
    );
    expect(
      answers.filter((answer) => answer === 'sent'),
      mailLogTail(settings),
    ).toHaveLength(10);
    expect(answers.filter((answer) => answer === 450)).toHaveLength(20);
    const bulk = () => outside.received.filter((message) => /Subject: Bulk \d+/.test(message.raw)).length;
    await within(15_000, async () => expect(bulk()).toBe(10));
    // Nothing more waits to leave: the deferred ones were never taken.
    const queue = execFileSync('postqueue', ['-c', path.join(settings.runDir, 'postfix'), '-p'], { encoding: 'utf8' });
    expect(queue).toMatch(/Mail queue is empty/);
    expect(bulk()).toBe(10);

    expect(await t.services.mailLimits.runOnce()).toBe(1);
    expect(await t.services.mailLimits.runOnce()).toBe(0);
    for (const told of [sender.user.id, owner.user.id]) {
      const notes = await t.db.selectFrom('notifications').select(['type', 'text']).where('user_id', '=', told).execute();
      expect(notes).toContainEqual({
        type: 'warning',
        text: expect.stringContaining(`${BULK} reached its limit of 10 messages an hour`) as unknown as string,
      });
    }

    // An hour later (the window's start moved back, as time would) it sends again.
    await t.db
      .updateTable('mail_send_windows')
      .set({ window_start: new Date(now - 61 * 60_000) })
      .where('domain_user_id', '=', boxId)
      .execute();
    expect(await submit(on587(BULK, PASSWORD), BULK, 'friend@outside.test', 'After the hour')).toBe('sent');
    await arrivedOutside('After the hour');
  });
});

describe("outbound limits per domain (10 times the plan's per-mailbox figure: its mailboxes and its forwarders together)", () => {
  it('forwards exactly 10 of 30 messages arriving at the same instant for a forwarder leading outside, defers the rest, then holds its mailboxes too', async () => {
    const customer = await customerWithPlan('relay-owner@alpha.test', 1);
    await domainWithMailbox('relay.example', customer.user.id, 'box');
    const relayDomain = await t.db.selectFrom('domains').select('id').where('name', '=', 'relay.example').executeTakeFirstOrThrow();
    const alias = await owner.call({
      method: 'POST',
      url: `/api/host/domain/${relayDomain.id}/aliases`,
      payload: { local_part: 'fwd', destination: 'far@outside.test' },
    });
    expect(alias.statusCode, alias.body).toBe(201);

    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => sendTo(settings, 'fwd@relay.example', `Forwarded ${i}`)));
    expect(
      answers.filter((answer) => answer === 'sent'),
      mailLogTail(settings),
    ).toHaveLength(10);
    expect(answers.filter((answer) => answer === 450)).toHaveLength(20);
    const forwarded = () => outside.received.filter((message) => /Subject: Forwarded \d+/.test(message.raw)).length;
    await within(15_000, async () => expect(forwarded()).toBe(10));
    // The domain's hour is used up: its mailbox, within its own limit of 1, is held too.
    expect(await submit(on587('box@relay.example', PASSWORD), 'box@relay.example', 'friend@outside.test', 'Held by the domain')).toBe(450);

    await t.services.mailLimits.runOnce();
    for (const told of [customer.user.id, owner.user.id]) {
      const notes = await t.db.selectFrom('notifications').select('text').where('user_id', '=', told).execute();
      expect(notes.map((note) => note.text)).toContainEqual(
        expect.stringContaining('The domain relay.example reached its limit of 10 messages an hour'),
      );
    }
    expect(await t.services.mailLimits.runOnce()).toBe(0);
  });
});

describe("the mail log of a mailbox (Postfix's log, read by the mail agent)", () => {
  it("shows what it sent, delivered, deferred or bounced with the receiving server's answer, and what it received", async () => {
    const domain = await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'logged.example' } });
    expect(domain.statusCode, domain.body).toBe(201);
    const logDomainId = domain.json().data.id;
    const boxes: Record<string, number> = {};
    for (const uid of ['desk', 'team']) {
      const box = await owner.call({
        method: 'POST',
        url: `/api/host/domain/${logDomainId}/users`,
        payload: { uid, password: PASSWORD, password_confirmation: PASSWORD, quota_mb: 50 },
      });
      expect(box.statusCode, box.body).toBe(201);
      boxes[uid] = box.json().data.id;
    }
    const login = { port: settings.submissionPort, implicitTls: false, user: 'desk@logged.example', pass: PASSWORD };
    for (const to of ['partner@outside.test', 'defer-1@outside.test', 'bounce-1@outside.test', 'team@logged.example']) {
      expect(await submit(login, 'desk@logged.example', to, `Report for ${to}`), mailLogTail(settings)).toBe('sent');
    }
    const logOf = async (uid: string) => {
      const answer = await owner.call({ method: 'GET', url: `/api/host/domain/${logDomainId}/users/${boxes[uid]}/mail-log` });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json().data as { direction: string; peer: string; status: string; detail: string }[];
    };
    await within(30_000, async () => {
      const sent = await logOf('desk');
      const byPeer = Object.fromEntries(sent.map((entry) => [entry.peer, entry]));
      expect(byPeer['partner@outside.test'], mailLogTail(settings)).toMatchObject({ direction: 'out', status: 'delivered', detail: '' });
      expect(byPeer['defer-1@outside.test']).toMatchObject({ direction: 'out', status: 'deferred' });
      expect(byPeer['defer-1@outside.test']?.detail).toMatch(/450 Mailbox busy, try later/);
      expect(byPeer['bounce-1@outside.test']).toMatchObject({ direction: 'out', status: 'bounced' });
      expect(byPeer['bounce-1@outside.test']?.detail).toMatch(/550 No such user here/);
      expect(byPeer['team@logged.example']).toMatchObject({ direction: 'out', status: 'delivered' });
      expect(await logOf('team')).toEqual([expect.objectContaining({ direction: 'in', peer: 'desk@logged.example', status: 'delivered' })]);
    });
    // Another tenant's admin reaches neither the mailbox nor its log.
    const stranger = await addUser(t, await addTenant(t, 'Beta', 'beta.test'), 'admin@beta.test', 'host_admin');
    const refused = await stranger.call({ method: 'GET', url: `/api/host/domain/${logDomainId}/users/${boxes.desk}/mail-log` });
    expect(refused.statusCode).toBe(404);
  });
});

describe('reading mail over TLS', () => {
  it('logs in over IMAPS with the panel password', async () => {
    const client = new ImapFlow({
      host: settings.address,
      port: settings.imapsPort,
      secure: true,
      tls: SELF_SIGNED,
      auth: { user: MAILBOX, pass: PASSWORD },
      logger: false,
    });
    await client.connect();
    expect(client.secureConnection).toBe(true);
    const status = await client.status('INBOX', { messages: true });
    expect(status && typeof status.messages).toBe('number');
    await client.logout();
  });

  it('logs in over POP3S, and over POP3 after STLS; refuses a wrong password', async () => {
    const pop3s = connectTls({ host: settings.address, port: settings.pop3sPort, ...SELF_SIGNED });
    try {
      expect(await talk(pop3s, null, popReply)).toMatch(/^\+OK/);
      expect(await talk(pop3s, `USER ${MAILBOX}`, popReply)).toMatch(/^\+OK/);
      expect(await talk(pop3s, 'PASS not the password', popReply)).toMatch(/^-ERR/);
      expect(await talk(pop3s, `USER ${MAILBOX}`, popReply)).toMatch(/^\+OK/);
      expect(await talk(pop3s, `PASS ${PASSWORD}`, popReply)).toMatch(/^\+OK Logged in/);
      expect(await talk(pop3s, 'STAT', popReply)).toMatch(/^\+OK \d+ \d+/);
      await talk(pop3s, 'QUIT', popReply);
    } finally {
      pop3s.destroy();
    }

    const plain = connectTcp({ host: settings.address, port: settings.pop3Port });
    try {
      expect(await talk(plain, null, popReply)).toMatch(/^\+OK/);
      expect(await talk(plain, 'STLS', popReply)).toMatch(/^\+OK/);
      const upgraded = connectTls({ socket: plain, ...SELF_SIGNED });
      await new Promise((resolve) => upgraded.once('secureConnect', resolve));
      expect(await talk(upgraded, `USER ${MAILBOX}`, popReply)).toMatch(/^\+OK/);
      expect(await talk(upgraded, `PASS ${PASSWORD}`, popReply)).toMatch(/^\+OK Logged in/);
      upgraded.destroy();
    } finally {
      plain.destroy();
    }
  });
});

/** A signed-in IMAPS client of the mail host. */
async function imaps(user: string, pass: string): Promise<ImapFlow> {
  const client = new ImapFlow({
    host: settings.address,
    port: settings.imapsPort,
    secure: true,
    tls: SELF_SIGNED,
    auth: { user, pass },
    logger: false,
  });
  await client.connect();
  return client;
}

/** Whether `user` can log in over IMAPS. */
async function imapsLogin(user: string, pass: string): Promise<boolean> {
  try {
    await (await imaps(user, pass)).logout();
    return true;
  } catch {
    return false;
  }
}

/** The subjects in `user`'s INBOX over IMAPS. */
async function inbox(user: string, pass: string): Promise<string[]> {
  const client = await imaps(user, pass);
  const subjects: string[] = [];
  const lock = await client.getMailboxLock('INBOX');
  try {
    for await (const message of client.fetch('1:*', { envelope: true })) subjects.push(message.envelope?.subject ?? '');
  } finally {
    lock.release();
  }
  await client.logout();
  return subjects;
}

describe('a customer suspended for an unpaid renewal (modules/billing)', () => {
  it('cannot log in over IMAP, POP3 or SMTP AUTH, still receives mail, and logs in again within 5 s of paying', async () => {
    const LATE = 'box@unpaid.example';
    const customer = await addUser(t, tenantId, 'late@alpha.test');
    await domainWithMailbox('unpaid.example', customer.user.id, 'box');
    expect(await imapsLogin(LATE, PASSWORD)).toBe(true);

    const invoiceId = await suspendForNonPayment(t, owner.call, customer.user.id, 'unpaid-renewal.com');
    expect(await imapsLogin(LATE, PASSWORD)).toBe(false);
    expect(await submit(on587(LATE, PASSWORD), LATE, 'friend@outside.test', 'While suspended')).toBe(535);
    const pop3s = connectTls({ host: settings.address, port: settings.pop3sPort, ...SELF_SIGNED });
    try {
      expect(await talk(pop3s, null, popReply)).toMatch(/^\+OK/);
      expect(await talk(pop3s, `USER ${LATE}`, popReply)).toMatch(/^\+OK/);
      expect(await talk(pop3s, `PASS ${PASSWORD}`, popReply)).toMatch(/^-ERR/);
    } finally {
      pop3s.destroy();
    }
    // Mail to the mailbox is still taken and kept.
    expect(await sendTo(settings, LATE, 'Kept while suspended'), mailLogTail(settings)).toBe('sent');

    await confirmPaid(owner.call, invoiceId);
    const paidAt = Date.now();
    await within(5_000, async () => expect(await imapsLogin(LATE, PASSWORD)).toBe(true));
    expect(Date.now() - paidAt).toBeLessThan(5_000);
    await within(10_000, async () => expect(await inbox(LATE, PASSWORD)).toContain('Kept while suspended'));
    expect(await submit(on587(LATE, PASSWORD), LATE, 'friend@outside.test', 'Paid and sending')).toBe('sent');
  });
});

/** The serial of the certificate presented for `name` (SNI, or none) on a TLS port, or after SMTP's STARTTLS. */
const tlsSerial = async (port: number, name: string | undefined) => (await presentedCertificate(port, { sni: name })).serial;
const starttlsSerial = async (port: number, name: string | undefined) =>
  (await presentedCertificate(port, { sni: name, starttls: true })).serial;

describe("each domain's own certificate", () => {
  it('is presented by IMAPS, POP3S and SMTP (STARTTLS on 25, submission) for the names a client asks for; other names get the default', async () => {
    const own = await ownChain(settings.runDir, ['send.example', '*.send.example'], 'mail');
    // The certificate was made just now: the platform's clock reads the same. That is more than a
    // remembered session's 30 days after the harness's start date, so the owner signs in again.
    t.clock.set(new Date());
    owner = { ...owner, call: await callerFor(t, owner.user) };
    const put = await owner.call({
      method: 'PUT',
      url: `/api/host/domain/${domainId}/certificate`,
      payload: { certificate: own.leaf + own.intermediate + own.root, private_key: own.key },
    });
    expect(put.statusCode, put.body).toBe(200);
    const serial = new X509Certificate(own.leaf).serialNumber;
    await within(10_000, async () => expect(await tlsSerial(settings.imapsPort, 'mail.send.example'), mailLogTail(settings)).toBe(serial));
    expect(await tlsSerial(settings.imapsPort, 'imap.send.example')).toBe(serial);
    expect(await tlsSerial(settings.pop3sPort, 'pop3.send.example')).toBe(serial);
    expect(await tlsSerial(settings.imapsPort, 'elsewhere.test')).not.toBe(serial);
    await within(10_000, async () => expect(await starttlsSerial(settings.smtpPort, 'mail.send.example')).toBe(serial));
    expect(await starttlsSerial(settings.submissionPort, 'smtp.send.example')).toBe(serial);
    expect(await tlsSerial(settings.smtpsPort, 'send.example')).toBe(serial);
    expect(await starttlsSerial(settings.smtpPort, 'elsewhere.test')).not.toBe(serial);
    // The key the daemons read: 0600.
    expect(statSync(path.join(settings.runDir, 'tls', 'names', 'send.example.key')).mode & 0o777).toBe(0o600);
    // Mail still goes out over 587 after the reload.
    expect(await submit(on587(), MAILBOX, 'friend@outside.test', 'after the certificate')).toBe('sent');
  });

  it("is the panel's own certificate by default once it has one: for names without their own and for clients that name none", async () => {
    const before = await tlsSerial(settings.imapsPort, 'elsewhere.test');
    // As the certificate pass stores it (modules/certificates/platform.ts): its key sealed for the agents.
    const panel = await ownChain(settings.runDir, ['panel.send.example'], 'panel');
    const serial = new X509Certificate(panel.leaf).serialNumber;
    expect(serial).not.toBe(before);
    await t.db
      .insertInto('platform_certificates')
      .values({
        names: ['panel.send.example'],
        method: 'dns-01',
        state: 'valid',
        serial,
        cert_pem: panel.leaf + panel.intermediate,
        key_sealed: t.services.secrets.derive(CERTIFICATE_KEYS_PURPOSE).seal(panel.key),
        updated_at: new Date(),
      })
      .execute();
    await within(10_000, async () => expect(await tlsSerial(settings.imapsPort, 'elsewhere.test'), mailLogTail(settings)).toBe(serial));
    expect(await tlsSerial(settings.imapsPort, undefined)).toBe(serial);
    expect(await tlsSerial(settings.pop3sPort, undefined)).toBe(serial);
    await within(10_000, async () => expect(await starttlsSerial(settings.smtpPort, 'elsewhere.test')).toBe(serial));
    expect(await starttlsSerial(settings.submissionPort, undefined)).toBe(serial);
    // A domain's own certificate still wins for its names.
    expect(await tlsSerial(settings.imapsPort, 'mail.send.example')).not.toBe(serial);
    expect(statSync(path.join(settings.runDir, 'tls', 'default.key')).mode & 0o777).toBe(0o600);
  });
});
