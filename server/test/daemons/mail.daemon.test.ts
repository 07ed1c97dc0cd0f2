import { rmSync } from 'node:fs';
import { authenticate } from 'mailauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareMail, startMail, type MailSettings, type RunningMail } from '../../src/daemons/mail.ts';
import { startSmtpReceiver } from '../smtp-receiver.ts';
import { imapOf, mailHostSettings, sendTo } from '../mail-host.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import { addTenant, addUser, type Caller } from '../hosting.ts';
import { DKIM_KEYS_PURPOSE } from '../../src/modules/dns/dkim.ts';

// Postfix and Dovecot from Debian's packages, reading this test's PostgreSQL database through the
// `mail` views (migration 0010): a mailbox made on the panel receives mail over SMTP and is read
// over IMAP with the panel's password; what the panel changes applies at the next login or RCPT.

let t: TestApp;
let owner: { call: Caller };
let mail: RunningMail;
let settings: MailSettings;
let runDir: string;
let domainId: number;
let tenantId: number;
let mailboxId: number;
/** "The rest of the internet": Postfix's relay for outgoing mail. */
let outside: Awaited<ReturnType<typeof startSmtpReceiver>>;
const PASSWORD = 'a long mailbox passphrase 91';
const MAILBOX = 'info@post.example';

beforeAll(async () => {
  t = await createTestApp();
  if (!t.databaseUrl) throw new Error('the daemon tests run on PostgreSQL (BERTH_TEST_DB=postgres)');
  tenantId = await addTenant(t, 'Alpha', 'alpha.test');
  // The tenant's admin: admins vouch for the names they add (a customer's own domain is served once proven).
  owner = await addUser(t, tenantId, 'owner@alpha.test', 'host_admin');
  domainId = (await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'post.example' } })).json().data.id;
  const created = await owner.call({
    method: 'POST',
    url: `/api/host/domain/${domainId}/users`,
    payload: { uid: 'info', password: PASSWORD, password_confirmation: PASSWORD, quota_mb: 50 },
  });
  expect(created.statusCode, created.body).toBe(201);
  mailboxId = created.json().data.id;
  outside = await startSmtpReceiver();
  settings = await mailHostSettings(t.databaseUrl, { relayPort: outside.port, prefix: 'berth-mail-' });
  // The mail agent writes each domain's DKIM key for rspamd, which signs the autoreplies.
  settings.dkimKeys = t.services.secrets.derive(DKIM_KEYS_PURPOSE).exportKeys();
  runDir = settings.runDir;
  await prepareMail(t.db, settings);
  mail = await startMail(settings);
}, 120_000);
afterAll(async () => {
  await mail?.stop();
  await outside?.close();
  await t?.close();
  if (runDir && !process.env.KEEP_MAIL_RUN_DIR) rmSync(runDir, { recursive: true, force: true });
});

/** The replies the outside got for `to`, polled until there are `count` (delivery goes Dovecot -> Postfix -> relay). */
async function repliesTo(to: string, count: number, withinMs = 15_000) {
  const started = Date.now();
  for (;;) {
    const replies = outside.received.filter((mail) => mail.rcptTo.includes(to));
    if (replies.length >= count || Date.now() - started > withinMs) return replies;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const send = (to: string, subject: string, options: { size?: number; text?: string; from?: string } = {}) =>
  sendTo(settings, to, subject, options);
const imap = (user: string, pass: string) => imapOf(settings, user, pass);

const loginWorks = async (user: string, pass: string) => {
  try {
    const client = await imap(user, pass);
    await client.logout();
    return true;
  } catch {
    return false;
  }
};

/** The subjects in the INBOX, polled until `subject` is there (delivery goes Postfix -> LMTP). */
async function inboxSubjects(user: string, pass: string, subject: string, withinMs = 10_000): Promise<string[]> {
  const started = Date.now();
  for (;;) {
    const client = await imap(user, pass);
    const subjects: string[] = [];
    try {
      const lock = await client.getMailboxLock('INBOX');
      try {
        for await (const message of client.fetch('1:*', { envelope: true })) subjects.push(message.envelope?.subject ?? '');
      } catch {
        // An empty INBOX has no 1:*.
      } finally {
        lock.release();
      }
    } finally {
      await client.logout();
    }
    if (subjects.includes(subject) || Date.now() - started > withinMs) return subjects;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('mail served from the panel', () => {
  it('delivers mail for a mailbox of the panel, read over IMAP with the panel password', async () => {
    expect(await send(MAILBOX, 'First delivery')).toBe('sent');
    expect(await inboxSubjects(MAILBOX, PASSWORD, 'First delivery')).toContain('First delivery');
  });

  it('refuses at RCPT an unknown address (550) and a domain not in Berth (relaying, 554)', async () => {
    expect(await send('nobody@post.example', 'Unknown')).toBe(550);
    expect(await send('someone@not-in-berth.example', 'Relay')).toBe(554);
  });

  it('a forwarder sends mail on to its destination', async () => {
    await t.db
      .insertInto('mail_aliases')
      .values({ tenant_id: tenantId, domain_id: domainId, local_part: 'sales', destination: MAILBOX })
      .execute();
    expect(await send('sales@post.example', 'Through the forwarder')).toBe('sent');
    expect(await inboxSubjects(MAILBOX, PASSWORD, 'Through the forwarder')).toContain('Through the forwarder');
  });

  it('a new password applies to IMAP at once; the old one is refused', async () => {
    const next = 'another mailbox passphrase 27';
    const changed = await t.app.inject({
      method: 'PATCH',
      url: '/api/host/domain-user/change-password',
      headers: { host: 'alpha.test' },
      payload: { uid: MAILBOX, user_password_old: PASSWORD, user_password: next, user_password_confirmation: next },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await loginWorks(MAILBOX, PASSWORD)).toBe(false);
    expect(await loginWorks(MAILBOX, next)).toBe(true);
    // Back, for the tests below.
    const back = await owner.call({
      method: 'POST',
      url: `/api/host/domain/${domainId}/users/${mailboxId}/password`,
      payload: { password: PASSWORD, password_confirmation: PASSWORD },
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(await loginWorks(MAILBOX, PASSWORD)).toBe(true);
  });

  it('a disabled mailbox refuses IMAP login and its mail at RCPT, until enabled again', async () => {
    const toggle = (enabled: boolean) =>
      owner.call({ method: 'PATCH', url: `/api/host/domain/${domainId}/users/${mailboxId}`, payload: { enabled } });
    expect((await toggle(false)).statusCode).toBe(200);
    expect(await loginWorks(MAILBOX, PASSWORD)).toBe(false);
    expect(await send(MAILBOX, 'While disabled')).toBe(550);
    expect((await toggle(true)).statusCode).toBe(200);
    expect(await loginWorks(MAILBOX, PASSWORD)).toBe(true);
  });

  it("refuses at RCPT a message larger than what is left of the mailbox's quota (552)", async () => {
    const quota = (quota_mb: number) =>
      owner.call({ method: 'PATCH', url: `/api/host/domain/${domainId}/users/${mailboxId}`, payload: { quota_mb } });
    expect((await quota(1)).statusCode).toBe(200);
    const big = 'x'.repeat(1_500_000);
    expect(await send(MAILBOX, 'Too big for the quota', { size: big.length + 1000, text: big })).toBe(552);
    expect((await quota(50)).statusCode).toBe(200);
    expect(await send(MAILBOX, 'Fits again', { size: big.length + 1000, text: big })).toBe('sent');
  });
});

describe('the autoresponder set on the panel', () => {
  const autoreply = (payload: Record<string, unknown>) =>
    owner.call({ method: 'PUT', url: `/api/host/domain/${domainId}/users/${mailboxId}/autoreply`, payload });
  const subjectOf = (raw: string) => /^Subject: (.*)$/m.exec(raw)?.[1]?.trim();

  it('answers each sender once per interval with its subject and text; the mail itself is delivered', async () => {
    const set = await autoreply({ enabled: true, subject: 'Out of office', body: 'I am away until Monday.\nInfo desk', interval_days: 1 });
    expect(set.statusCode, set.body).toBe(200);
    expect(await send(MAILBOX, 'Question one', { from: 'anna@elsewhere.test' })).toBe('sent');
    const [reply] = await repliesTo('anna@elsewhere.test', 1);
    expect(reply, JSON.stringify(outside.received)).toBeDefined();
    expect(subjectOf(reply?.raw ?? '')).toBe('Out of office');
    expect(reply?.raw).toContain('I am away until Monday.');
    expect(reply?.raw).toMatch(/^From: .*info@post\.example/im);
    expect(reply?.raw).toMatch(/^Auto-Submitted: auto-replied/im);
    // Signed with the domain's key: a receiver that finds its published record in the zone says pass.
    const key = await t.db
      .selectFrom('dkim_keys')
      .select(['selector', 'public_key'])
      .where('domain_id', '=', domainId)
      .executeTakeFirstOrThrow();
    const published = await t.db
      .selectFrom('dns_records')
      .select('content')
      .where('domain_id', '=', domainId)
      .where('type', '=', 'TXT')
      .where('name', '=', `${key.selector}._domainkey`)
      .executeTakeFirstOrThrow();
    const checked = await authenticate(reply?.raw ?? '', {
      ip: '127.0.0.1',
      sender: reply?.mailFrom ?? '',
      mta: 'mx.elsewhere.test',
      resolver: (async (name: string, type: string) => {
        if (type === 'TXT' && name === `${key.selector}._domainkey.post.example`) return [[published.content]];
        throw Object.assign(new Error(`no ${type} ${name}`), { code: 'ENOTFOUND' });
      }) as NonNullable<Parameters<typeof authenticate>[1]>['resolver'],
    });
    expect(checked.dkim.results.map((result) => [result.signingDomain, result.selector, result.status.result])).toEqual([
      ['post.example', key.selector, 'pass'],
    ]);
    expect(await inboxSubjects(MAILBOX, PASSWORD, 'Question one')).toContain('Question one');

    // Within the interval Anna gets no second reply; another sender gets theirs.
    expect(await send(MAILBOX, 'Question two', { from: 'anna@elsewhere.test' })).toBe('sent');
    expect(await inboxSubjects(MAILBOX, PASSWORD, 'Question two')).toContain('Question two');
    expect(await send(MAILBOX, 'Question three', { from: 'ben@elsewhere.test' })).toBe('sent');
    expect(await repliesTo('ben@elsewhere.test', 1)).toHaveLength(1);
    expect(outside.received.filter((mail) => mail.rcptTo.includes('anna@elsewhere.test'))).toHaveLength(1);
  });

  it('switched off it answers nobody; a changed text applies to the next delivery', async () => {
    expect((await autoreply({ enabled: false, subject: 'Out of office', body: 'x' })).statusCode).toBe(200);
    expect(await send(MAILBOX, 'While off', { from: 'cleo@elsewhere.test' })).toBe('sent');
    expect(await inboxSubjects(MAILBOX, PASSWORD, 'While off')).toContain('While off');
    expect((await autoreply({ enabled: true, subject: 'Back on Monday', body: 'See you then.' })).statusCode).toBe(200);
    expect(await send(MAILBOX, 'After the change', { from: 'dan@elsewhere.test' })).toBe('sent');
    const [reply] = await repliesTo('dan@elsewhere.test', 1);
    expect(subjectOf(reply?.raw ?? '')).toBe('Back on Monday');
    expect(outside.received.filter((mail) => mail.rcptTo.includes('cleo@elsewhere.test'))).toEqual([]);
  });

  it('the public SMTP port still relays for nobody, loopback included', async () => {
    expect(await send('someone@not-in-berth.example', 'Relay attempt')).toBe(554);
  });
});
