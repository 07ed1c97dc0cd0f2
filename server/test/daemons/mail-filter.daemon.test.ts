import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareMail, startMail, type MailSettings, type RunningMail } from '../../src/daemons/mail.ts';
import { imapOf, mailHostSettings, mailLogTail, sendTo, smtpClientOf } from '../mail-host.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import { addTenant, addUser } from '../hosting.ts';
import { within } from '../within.ts';

// Incoming filtering: rspamd is the milter of port 25. Spam above its reject score is refused at
// SMTP time; the rest carries its score (X-Spam-Level), and each mailbox's filter (off, normal,
// strict) files spam in Junk by a Sieve rule Berth writes. Moving a message into or out of Junk
// over IMAP teaches rspamd's Bayes classifier (Dovecot's imapsieve, rspamd's controller socket).
// rspamd's own test patterns stand for spam of each action (enable_test_patterns, tests only).

let t: TestApp;
let mail: RunningMail;
let settings: MailSettings;
let domainId: number;
let owner: Awaited<ReturnType<typeof addUser>>;
let redis: ReturnType<typeof createClient>;
const PASSWORD = 'a long mailbox passphrase 78';
/** GTUBE: rspamd's reject action. */
const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';
/** rspamd's test pattern for its add-header action (spam, but not to be refused). */
const SPAM_ADD_HEADER = 'YJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';
const mailboxes = { normal: 'normal@filter.example', strict: 'strict@filter.example', off: 'off@filter.example' } as const;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  if (!t.databaseUrl) throw new Error('the daemon tests run on PostgreSQL (BERTH_TEST_DB=postgres)');
  const tenantId = await addTenant(t, 'Alpha', 'alpha.test');
  owner = await addUser(t, tenantId, 'owner@alpha.test', 'host_admin');
  domainId = (await owner.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'filter.example' } })).json().data.id;
  for (const [level, address] of Object.entries(mailboxes)) {
    const made = await owner.call({
      method: 'POST',
      url: `/api/host/domain/${domainId}/users`,
      payload: {
        uid: address,
        password: PASSWORD,
        password_confirmation: PASSWORD,
        quota_mb: 50,
        ...(level === 'normal' ? {} : { spam_filter: level }),
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data.spam_filter).toBe(level);
    ids[level] = made.json().data.id;
  }
  settings = await mailHostSettings(t.databaseUrl, { prefix: 'berth-mail-filter-' });
  await prepareMail(t.db, settings);
  mail = await startMail(settings);
  redis = createClient({ url: `redis://${settings.rspamdRedis}` });
  await redis.connect();
}, 180_000);
afterAll(async () => {
  await redis?.quit();
  await mail?.stop();
  await t?.close();
  if (settings?.runDir) rmSync(settings.runDir, { recursive: true, force: true });
});

/** The folder a message with this subject is in (INBOX, Junk), and its headers; undefined while it is in neither. */
async function whereIs(address: string, subject: string): Promise<{ folder: string; headers: string } | undefined> {
  const client = await imapOf(settings, address, PASSWORD);
  try {
    for (const folder of ['INBOX', 'Junk']) {
      const lock = await client.getMailboxLock(folder);
      try {
        const found = await client.search({ subject }, { uid: true });
        if (found && found.length > 0) {
          const message = await client.fetchOne(String(found[0]), { headers: true }, { uid: true });
          return { folder, headers: message ? (message.headers?.toString('utf8') ?? '') : '' };
        }
      } finally {
        lock.release();
      }
    }
    return undefined;
  } finally {
    await client.logout();
  }
}

const text = (extra: string) => `Hello, this is a message about the quarterly garden meeting, the new benches and the flowers.\n${extra}\n`;

describe('spam filtering (rspamd on port 25)', () => {
  it('refuses GTUBE at SMTP time, while the sender is connected: nothing is delivered', async () => {
    const subject = `gtube ${randomUUID()}`;
    const answer = await sendTo(settings, mailboxes.normal, subject, { text: text(GTUBE) });
    expect(answer, mailLogTail(settings)).toBe(554);
    // A clean message sent after it arrives: the refused one would have been ahead of it.
    const clean = `clean ${randomUUID()}`;
    expect(await sendTo(settings, mailboxes.normal, clean, { text: text('Nothing odd here.') })).toBe('sent');
    await within(20_000, async () => expect(await whereIs(mailboxes.normal, clean), mailLogTail(settings)).toBeDefined());
    expect(await whereIs(mailboxes.normal, subject)).toBeUndefined();
  });

  it('scores what it takes: a clean message stays in the INBOX with the results in its headers, a forged score is removed', async () => {
    const subject = `hello ${randomUUID()}`;
    const transport = smtpClientOf(settings);
    await transport.sendMail({
      from: 'sender@elsewhere.test',
      to: mailboxes.normal,
      subject,
      text: text('Regards'),
      headers: { 'X-Spam-Level': '**********' },
    });
    await within(20_000, async () => expect((await whereIs(mailboxes.normal, subject))?.folder, mailLogTail(settings)).toBe('INBOX'));
    const { headers } = (await whereIs(mailboxes.normal, subject))!;
    expect(headers).toMatch(/^X-Spamd-Result: default: False \[/m);
    expect(headers).toMatch(/^Authentication-Results: mail\.berth\.localhost;/m);
    expect(headers).not.toContain('X-Spam-Level: **********');
  });

  it('files spam in Junk for the normal and strict filters, in the INBOX for a mailbox whose filter is off', async () => {
    const subject = `offer ${randomUUID()}`;
    for (const address of Object.values(mailboxes)) {
      expect(await sendTo(settings, address, subject, { text: text(SPAM_ADD_HEADER) }), mailLogTail(settings)).toBe('sent');
    }
    await within(20_000, async () => {
      expect((await whereIs(mailboxes.normal, subject))?.folder, mailLogTail(settings)).toBe('Junk');
      expect((await whereIs(mailboxes.strict, subject))?.folder).toBe('Junk');
      expect((await whereIs(mailboxes.off, subject))?.folder).toBe('INBOX');
    });
    const { headers } = (await whereIs(mailboxes.normal, subject))!;
    expect(headers).toMatch(/^X-Spam: Yes/m);
  });

  it('files a message of a middling score (no MIME-Version, a subject in capitals, a link to an address: about 4 points) in Junk for the strict filter only', async () => {
    const subject = `MIDDLING OFFER ${randomUUID().toUpperCase()}`;
    const transport = smtpClientOf(settings);
    for (const address of [mailboxes.normal, mailboxes.strict]) {
      await transport.sendMail({
        envelope: { from: 'sender@elsewhere.test', to: [address] },
        raw: `From: sender@elsewhere.test\r\nTo: ${address}\r\nSubject: ${subject}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${text('Details: http://192.0.2.7/offer')}`,
      });
    }
    await within(20_000, async () => {
      expect((await whereIs(mailboxes.strict, subject))?.folder, mailLogTail(settings)).toBe('Junk');
      expect((await whereIs(mailboxes.normal, subject))?.folder).toBe('INBOX');
    });
    const { headers } = (await whereIs(mailboxes.normal, subject))!;
    expect(headers).toMatch(/^X-Spam-Level: \*{3,5}\r?$/m);
  });

  it('follows a change of the filter at the next delivery', async () => {
    const changed = await owner.call({
      method: 'PATCH',
      url: `/api/host/domain/${domainId}/users/${ids.off}`,
      payload: { spam_filter: 'normal' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.spam_filter).toBe('normal');
    const subject = `offer again ${randomUUID()}`;
    expect(await sendTo(settings, mailboxes.off, subject, { text: text(SPAM_ADD_HEADER) })).toBe('sent');
    await within(20_000, async () => expect((await whereIs(mailboxes.off, subject))?.folder, mailLogTail(settings)).toBe('Junk'));
  });
});

/** How many messages rspamd's Bayes classifier has learned, as it keeps them in Redis (hash RS). */
async function learned(): Promise<{ spam: number; ham: number }> {
  const counts = await redis.hGetAll('RS');
  return { spam: Number(counts.learns_spam ?? 0), ham: Number(counts.learns_ham ?? 0) };
}

describe('training by moving mail in IMAP', () => {
  it('learns a message moved into Junk as spam, and one moved out of Junk as ham', async () => {
    const before = await learned();
    const subject = `cheap watches ${randomUUID()}`;
    const words = Array.from({ length: 40 }, () => randomUUID().slice(0, 8)).join(' ');
    expect(await sendTo(settings, mailboxes.strict, subject, { text: text(words) })).toBe('sent');
    await within(20_000, async () => expect((await whereIs(mailboxes.strict, subject))?.folder).toBe('INBOX'));
    const client = await imapOf(settings, mailboxes.strict, PASSWORD);
    try {
      let lock = await client.getMailboxLock('INBOX');
      try {
        await client.messageMove({ subject }, 'Junk');
      } finally {
        lock.release();
      }
      await within(20_000, async () => expect((await learned()).spam, mailLogTail(settings)).toBe(before.spam + 1));
      lock = await client.getMailboxLock('Junk');
      try {
        await client.messageMove({ subject }, 'INBOX');
      } finally {
        lock.release();
      }
      await within(20_000, async () => expect((await learned()).ham, mailLogTail(settings)).toBe(before.ham + 1));
    } finally {
      await client.logout();
    }
  });
});
