import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ImapFlow } from 'imapflow';
import { authenticate } from 'mailauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DKIM_KEYS_PURPOSE } from '../../src/modules/dns/dkim.ts';
import { prepareMail, startMail, type MailSettings, type RunningMail } from '../../src/daemons/mail.ts';
import { startSmtpReceiver } from '../smtp-receiver.ts';
import { imapOf, mailHostSettings, sendTo } from '../mail-host.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import { addTenant, addUser, type Caller } from '../hosting.ts';

// What the mail host must never do, with Debian's Postfix and Dovecot and Berth's mail agent:
// hand an old owner's mail to the next owner of an address (across tenants or within a domain),
// keep an IMAP session of a mailbox that lost its access, bounce over-quota mail to a possibly
// forged sender, defer a forwarding loop for days, leave postmaster@ unanswered, or publish a
// listener that takes mail without authentication.

let t: TestApp;
let mail: RunningMail;
let settings: MailSettings;
let runDir: string;
let outside: Awaited<ReturnType<typeof startSmtpReceiver>>;
let adminA: { call: Caller };
let adminB: { call: Caller };
let tenantA: number;
const PASSWORD = 'a long mailbox passphrase 91';

beforeAll(async () => {
  t = await createTestApp();
  if (!t.databaseUrl) throw new Error('the daemon tests run on PostgreSQL (BERTH_TEST_DB=postgres)');
  tenantA = await addTenant(t, 'Alpha', 'alpha.test');
  const tenantB = await addTenant(t, 'Beta', 'beta.test');
  adminA = await addUser(t, tenantA, 'owner@alpha.test', 'host_admin');
  adminB = await addUser(t, tenantB, 'owner@beta.test', 'host_admin');
  outside = await startSmtpReceiver();
  settings = await mailHostSettings(t.databaseUrl, { relayPort: outside.port, prefix: 'berth-mail-safety-' });
  // The mail agent writes each domain's DKIM key for rspamd (it seals forwards with ARC).
  settings.dkimKeys = t.services.secrets.derive(DKIM_KEYS_PURPOSE).exportKeys();
  runDir = settings.runDir;
  await prepareMail(t.db, settings);
  mail = await startMail(settings);
}, 120_000);
afterAll(async () => {
  await mail?.stop();
  await outside?.close();
  await t?.close();
  if (runDir) rmSync(runDir, { recursive: true, force: true });
});

async function addDomain(admin: { call: Caller }, name: string): Promise<number> {
  const answer = await admin.call({ method: 'POST', url: '/api/host/domain', payload: { name } });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data.id;
}
async function addMailbox(admin: { call: Caller }, domainId: number, uid: string, quota_mb = 50): Promise<number> {
  const answer = await admin.call({
    method: 'POST',
    url: `/api/host/domain/${domainId}/users`,
    payload: { uid, password: PASSWORD, password_confirmation: PASSWORD, quota_mb },
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data.id;
}

const send = (to: string, subject: string, options: { text?: string; size?: number } = {}) => sendTo(settings, to, subject, options);
const imap = (user: string) => imapOf(settings, user, PASSWORD);

/** The INBOX's subjects (polled until `subject` is there, or for the whole wait when none is named). */
async function inbox(user: string, subject?: string, withinMs = 10_000): Promise<string[]> {
  const started = Date.now();
  for (;;) {
    const client = await imap(user);
    const subjects: string[] = [];
    try {
      const status = await client.status('INBOX', { messages: true });
      if (status && status.messages) {
        const lock = await client.getMailboxLock('INBOX');
        try {
          for await (const message of client.fetch('1:*', { envelope: true })) subjects.push(message.envelope?.subject ?? '');
        } finally {
          lock.release();
        }
      }
    } finally {
      await client.logout();
    }
    if (subject === undefined || subjects.includes(subject) || Date.now() - started > withinMs) return subjects;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const homeOf = (id: number) => path.join(runDir, 'mailboxes', String(id));
async function until(check: () => boolean | Promise<boolean>, withinMs = 5_000): Promise<boolean> {
  const started = Date.now();
  while (Date.now() - started < withinMs) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe("an address's next owner gets none of the old owner's mail", () => {
  it('across tenants: a domain deleted on one tenant and added on another starts with an empty mailbox', async () => {
    const oldDomain = await addDomain(adminA, 'example.test');
    const oldBox = await addMailbox(adminA, oldDomain, 'ceo');
    expect(await send('ceo@example.test', 'Board minutes')).toBe('sent');
    expect(await inbox('ceo@example.test', 'Board minutes')).toContain('Board minutes');
    expect(existsSync(homeOf(oldBox))).toBe(true);

    const removed = await adminA.call({ method: 'DELETE', url: `/api/host/domain/${oldDomain}`, query: { confirm: 'example.test' } });
    expect(removed.statusCode, removed.body).toBe(200);
    // The mail agent removes the old files at once.
    expect(await until(() => !existsSync(homeOf(oldBox)))).toBe(true);

    const newDomain = await addDomain(adminB, 'example.test');
    const newBox = await addMailbox(adminB, newDomain, 'ceo');
    expect(newBox).not.toBe(oldBox);
    expect(await inbox('ceo@example.test')).toEqual([]);
    expect(await send('ceo@example.test', 'Welcome aboard')).toBe('sent');
    expect(await inbox('ceo@example.test', 'Welcome aboard')).toEqual(['Welcome aboard']);
  });

  it('within one domain: a mailbox deleted and made again is empty', async () => {
    const domain = await addDomain(adminA, 'within.test');
    const first = await addMailbox(adminA, domain, 'desk');
    expect(await send('desk@within.test', 'Private note')).toBe('sent');
    expect(await inbox('desk@within.test', 'Private note')).toContain('Private note');
    expect((await adminA.call({ method: 'DELETE', url: `/api/host/domain/${domain}/users/${first}` })).statusCode).toBe(200);
    await addMailbox(adminA, domain, 'desk');
    expect(await inbox('desk@within.test')).toEqual([]);
    expect(await until(() => !existsSync(homeOf(first)))).toBe(true);
  });
});

describe('open IMAP sessions end when the mailbox loses its access', () => {
  const stillAnswers = async (client: ImapFlow) => {
    try {
      await client.noop();
      await client.search({ all: true });
      return client.usable;
    } catch {
      return false;
    }
  };

  it.each([
    [
      'disabled',
      (domain: number, id: number) =>
        adminA.call({ method: 'PATCH', url: `/api/host/domain/${domain}/users/${id}`, payload: { enabled: false } }),
    ],
    [
      'given a new password',
      (domain: number, id: number) =>
        adminA.call({
          method: 'POST',
          url: `/api/host/domain/${domain}/users/${id}/password`,
          payload: { password: 'a different passphrase 55', password_confirmation: 'a different passphrase 55' },
        }),
    ],
    ['deleted', (domain: number, id: number) => adminA.call({ method: 'DELETE', url: `/api/host/domain/${domain}/users/${id}` })],
  ])('%s', async (_, change) => {
    const name = `kick-${Math.random().toString(36).slice(2, 8)}.test`;
    const domain = await addDomain(adminA, name);
    const id = await addMailbox(adminA, domain, 'user');
    const client = await imap(`user@${name}`);
    await client.mailboxOpen('INBOX');
    expect(await stillAnswers(client)).toBe(true);
    expect((await change(domain, id)).statusCode).toBe(200);
    expect(await until(async () => !(await stillAnswers(client)))).toBe(true);
    client.close();
  });
});

describe('mail Postfix must not accept, defer or leave unanswered', () => {
  it('refuses at the end of DATA a message that no longer fits the quota, from a sender that declared no SIZE: no bounce', async () => {
    const domain = await addDomain(adminA, 'quota.test');
    await addMailbox(adminA, domain, 'small', 1);
    const before = outside.received.length;
    const big = 'x'.repeat(1_500_000);
    expect(await send('small@quota.test', 'No SIZE declared', { text: big })).toBe(552);
    // Postfix accepted nothing, so nothing is bounced back to the (possibly forged) sender.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(outside.received.slice(before).filter((message) => message.rcptTo.includes('sender@elsewhere.test'))).toEqual([]);
    expect(await send('small@quota.test', 'Small enough')).toBe('sent');
    expect(await inbox('small@quota.test', 'Small enough')).toContain('Small enough');
  });

  it('refuses mail for a forwarding loop at RCPT, for good (550), however the loop arose', async () => {
    const domain = await addDomain(adminA, 'loop.test');
    // Written past the panel's check, as two tenants' changes could meet.
    await t.db
      .insertInto('mail_aliases')
      .values([
        { tenant_id: tenantA, domain_id: domain, local_part: 'a', destination: 'b@loop.test' },
        { tenant_id: tenantA, domain_id: domain, local_part: 'b', destination: 'a@loop.test' },
      ])
      .execute();
    expect(await send('a@loop.test', 'Round and round')).toBe(550);
    expect(await send('b@loop.test', 'Round and round')).toBe(550);
  });

  it("delivers postmaster@, abuse@ and hostmaster@ to the domain's owner", async () => {
    await addDomain(adminA, 'roles.test');
    for (const local of ['postmaster', 'abuse', 'hostmaster']) expect(await send(`${local}@roles.test`, `To ${local}`)).toBe('sent');
    expect(await until(() => outside.received.filter((message) => message.rcptTo.includes('owner@alpha.test')).length >= 3, 15_000)).toBe(
      true,
    );
  });

  it("forwards to an outside address with an SRS sender of the mail host, so the target's SPF check passes, sealed with ARC by the forwarding domain", async () => {
    const domain = await addDomain(adminA, 'srs.test');
    const alias = await adminA.call({
      method: 'POST',
      url: `/api/host/domain/${domain}/aliases`,
      payload: { local_part: 'fwd', destination: 'someone@elsewhere-target.test' },
    });
    expect(alias.statusCode, alias.body).toBe(201);
    expect(await send('fwd@srs.test', 'Forward me')).toBe('sent');
    expect(await until(() => outside.received.some((message) => message.rcptTo.includes('someone@elsewhere-target.test')), 15_000)).toBe(
      true,
    );
    const forwarded = outside.received.find((message) => message.rcptTo.includes('someone@elsewhere-target.test'));
    expect(forwarded?.mailFrom).toMatch(/^SRS0=[^=]+=[^=]+=elsewhere\.test=sender@mail\.berth\.localhost$/);
    expect(forwarded?.raw).toContain('Subject: Forward me');
    // The seal verifies against the DKIM record Berth publishes for srs.test (read from its zone
    // here: this test runs no name server), for the domain's own selector.
    const records = await t.db
      .selectFrom('dns_records')
      .select(['name', 'content'])
      .where('domain_id', '=', domain)
      .where('type', '=', 'TXT')
      .where('name', 'like', '%._domainkey')
      .execute();
    expect(records).toHaveLength(1);
    const resolver = async (name: string, type: string) => {
      const record = records.find((row) => `${row.name}.srs.test` === name);
      if (type !== 'TXT' || !record) throw Object.assign(new Error(`no ${type} ${name}`), { code: 'ENOTFOUND' });
      return [[record.content]];
    };
    const checked = await authenticate(Buffer.from(forwarded!.raw), {
      ip: '127.0.0.1',
      helo: 'mail.berth.localhost',
      mta: 'elsewhere-target.test',
      sender: forwarded!.mailFrom,
      resolver,
    });
    const selector = records[0]!.name.replace(/\._domainkey$/, '');
    expect(checked.arc && checked.arc.status.result, JSON.stringify(checked.arc)).toBe('pass');
    const unfolded = forwarded!.raw.replace(/\r?\n[ \t]+/g, ' ');
    const seal = /^ARC-Message-Signature: (.*)$/m.exec(unfolded)?.[1] ?? '';
    expect(seal, unfolded.slice(0, 3000)).toMatch(/(^|;)\s*d=srs\.test;/);
    expect(seal).toMatch(new RegExp(`(^|;)\\s*s=${selector};`));
    // A forward is not DKIM-signed as if the mail host had written it.
    expect(forwarded?.raw).not.toMatch(/^DKIM-Signature:/m);
  });

  it('answers VRFY with nothing', async () => {
    const answer = await new Promise<string>((resolve) => {
      const socket = connect({ host: settings.address, port: settings.smtpPort });
      let text = '';
      let asked = false;
      socket.on('data', (chunk) => {
        text += chunk.toString();
        if (!asked && /^220 /m.test(text)) {
          asked = true;
          text = '';
          socket.write('VRFY postmaster@roles.test\r\n');
        } else if (asked && /^\d{3} /m.test(text)) {
          socket.removeAllListeners('data');
          socket.end('QUIT\r\n');
          resolve(text);
        }
      });
    });
    expect(answer).toMatch(/^502 5\.5\.1 VRFY command is disabled/m);
  });
});

/** A Debian account's uid or gid. */
const idOf = (kind: 'u' | 'g', name: string) => Number(execFileSync('id', [`-${kind}`, name], { encoding: 'utf8' }).trim());

describe('internal listeners', () => {
  it('are rendered on loopback whatever address SMTP and IMAP are published on', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'berth-mail-render-'));
    try {
      await prepareMail(t.db, {
        ...settings,
        address: '192.0.2.25',
        smtpPort: 25,
        imapPort: 143,
        submissionPort: 587,
        smtpsPort: 465,
        imapsPort: 993,
        pop3Port: 110,
        pop3sPort: 995,
        runDir: dir,
      });
      const main = readFileSync(path.join(dir, 'postfix', 'main.cf'), 'utf8');
      const master = readFileSync(path.join(dir, 'postfix', 'master.cf'), 'utf8');
      const dovecot = readFileSync(path.join(dir, 'dovecot', 'dovecot.conf'), 'utf8');
      expect(main).toContain(`virtual_transport = lmtp:inet:127.0.0.1:${settings.lmtpPort}`);
      expect(main).toContain(`check_policy_service inet:127.0.0.1:${settings.quotaStatusPort}`);
      expect(main).toContain('mynetworks = 127.0.0.1/32');
      expect(main).toContain('disable_vrfy_command = yes');
      expect(master).toContain('192.0.2.25:25 inet');
      expect(master).toContain(`127.0.0.1:${settings.replyPort} inet`);
      expect(master).not.toContain(`192.0.2.25:${settings.replyPort}`);
      expect(dovecot).toMatch(new RegExp(`address = 127\\.0\\.0\\.1\\n\\s+port = ${settings.lmtpPort}`));
      expect(dovecot).toMatch(new RegExp(`address = 127\\.0\\.0\\.1\\n\\s+port = ${settings.quotaStatusPort}`));
      expect(dovecot).toContain(`submission_host = 127.0.0.1:${settings.replyPort}`);
      // rspamd's milter and the mail agent's policy (quota at the end of DATA, sending limits).
      const proxy = readFileSync(path.join(dir, 'rspamd', 'override.d', 'worker-proxy.inc'), 'utf8');
      // The milter is a socket in a folder only rspamd and Postfix may enter, on no address at all.
      expect(proxy).toContain(`bind_socket = "${dir}/rspamd-milter/milter.sock mode=0666";`);
      expect(proxy.match(/^bind_socket = .*$/gm)).toHaveLength(1);
      expect(master.match(/smtpd_milters=\S+/g)).toEqual(Array(4).fill(`smtpd_milters=unix:${dir}/rspamd-milter/milter.sock`));
      const milterFolder = statSync(path.join(dir, 'rspamd-milter'));
      expect([milterFolder.mode & 0o777, milterFolder.uid, milterFolder.gid]).toEqual([0o750, idOf('u', '_rspamd'), idOf('g', 'postfix')]);
      expect(main).toContain(`berth_submission_end_of_data = check_policy_service inet:127.0.0.1:${settings.policyPort}`);
      // rspamd's controller (what users teach the spam filter) is a socket in a folder only rspamd
      // and the mail user may enter; no normal worker listens.
      const controller = readFileSync(path.join(dir, 'rspamd', 'override.d', 'worker-controller.inc'), 'utf8');
      expect(controller).toContain(`bind_socket = "${dir}/rspamd-controller/controller.sock mode=0666";`);
      const folder = statSync(path.join(dir, 'rspamd-controller'));
      expect([folder.mode & 0o777, folder.uid, folder.gid]).toEqual([0o750, idOf('u', '_rspamd'), idOf('g', 'mail')]);
      expect(readFileSync(path.join(dir, 'rspamd', 'override.d', 'worker-normal.inc'), 'utf8')).toContain('enabled = false;');
      // The only things on the published address are SMTP, submission, IMAP and POP3; Dovecot's
      // authentication for Postfix is a socket in Postfix's private folder.
      expect(master).toContain('192.0.2.25:587 inet');
      expect(master).toContain('192.0.2.25:465 inet');
      expect(dovecot).toMatch(/address = 192\.0\.2\.25\n\s+port = 993\n\s+ssl = yes/);
      expect(dovecot).toMatch(/address = 192\.0\.2\.25\n\s+port = 995\n\s+ssl = yes/);
      expect(dovecot).toContain(`unix_listener ${dir}/postfix-queue/private/auth {`);
      const settingLines = [main, master, dovecot].flatMap((text) => text.split('\n').filter((line) => !line.trim().startsWith('#')));
      const published = settingLines.join('\n').match(/192\.0\.2\.25[^\n]*/g) ?? [];
      expect(published.filter((line) => !/^192\.0\.2\.25(:(25|587|465) inet n - n - - smtpd)?$/.test(line))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
