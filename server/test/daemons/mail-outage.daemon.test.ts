import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareMail, startMail, type MailSettings, type RunningMail } from '../../src/daemons/mail.ts';
import { startPostgres, type TestPostgres } from '../faults/processes.ts';
import { mailHostSettings } from '../mail-host.ts';
import { createTestApp, type TestApp } from '../harness.ts';
import { addTenant, addUser } from '../hosting.ts';

// Postfix and Dovecot while the database is away and when it is back: answers within seconds
// during the outage (a refusal, never a hang), and normal service within 5 s of its return. The
// database is this test's own PostgreSQL (the shared one is never stopped).

let pg: TestPostgres;
let t: TestApp;
let mail: RunningMail;
let settings: MailSettings;
let runDir: string;
const PASSWORD = 'a long mailbox passphrase 91';
const MAILBOX = 'desk@outage.example';

beforeAll(async () => {
  pg = await startPostgres();
  // Its own PostgreSQL, which the test stops: the app's database is made there.
  t = await createTestApp({ databaseServerUrl: pg.url });
  const tenant = await addTenant(t, 'Alpha', 'alpha.test');
  const admin = await addUser(t, tenant, 'owner@alpha.test', 'host_admin');
  const domain = (await admin.call({ method: 'POST', url: '/api/host/domain', payload: { name: 'outage.example' } })).json().data.id;
  const made = await admin.call({
    method: 'POST',
    url: `/api/host/domain/${domain}/users`,
    payload: { uid: 'desk', password: PASSWORD, password_confirmation: PASSWORD },
  });
  expect(made.statusCode, made.body).toBe(201);
  settings = await mailHostSettings(t.databaseUrl!, { prefix: 'berth-mail-outage-' });
  runDir = settings.runDir;
  await prepareMail(t.db, settings);
  mail = await startMail(settings);
}, 180_000);
afterAll(async () => {
  await mail?.stop();
  await t?.close().catch(() => undefined);
  await pg?.destroy();
  if (runDir) rmSync(runDir, { recursive: true, force: true });
});

/** An IMAP login: whether it worked, and how long the answer took. */
async function imapLogin(): Promise<{ ok: boolean; ms: number }> {
  const started = Date.now();
  const client = new ImapFlow({
    host: settings.address,
    port: settings.imapPort,
    secure: false,
    doSTARTTLS: false,
    auth: { user: MAILBOX, pass: PASSWORD },
    logger: false,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 30_000,
  });
  try {
    await client.connect();
    await client.logout();
    return { ok: true, ms: Date.now() - started };
  } catch {
    client.close();
    return { ok: false, ms: Date.now() - started };
  }
}

/** The SMTP answer to RCPT TO:<MAILBOX> (its code), and how long it took. */
function rcpt(): Promise<{ code: number; ms: number }> {
  const started = Date.now();
  const commands = ['EHLO client.test', 'MAIL FROM:<sender@elsewhere.test>', `RCPT TO:<${MAILBOX}>`];
  return new Promise((resolve) => {
    const socket = connect({ host: settings.address, port: settings.smtpPort });
    let buffer = '';
    let answered = 0;
    socket.setTimeout(60_000, () => socket.destroy());
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!/^\d{3} /.test(line)) continue; // a continuation line (250-…)
        answered += 1;
        if (answered <= commands.length) socket.write(`${commands[answered - 1]}\r\n`);
        else {
          socket.end('QUIT\r\n');
          resolve({ code: Number(line.slice(0, 3)), ms: Date.now() - started });
        }
      }
    });
    socket.on('error', () => resolve({ code: -1, ms: Date.now() - started }));
    socket.on('close', () => resolve({ code: -1, ms: Date.now() - started }));
  });
}

describe('mail while the database is away', () => {
  it('answers within seconds during the outage and is back within 5 s of its return', async () => {
    expect((await imapLogin()).ok).toBe(true);
    expect((await rcpt()).code).toBe(250);

    await pg.stop();
    // Forty seconds away, with clients knocking all along (each failure lengthens the daemons' own backoff).
    const outageEnds = Date.now() + 40_000;
    const during: { imap: number[]; smtp: number[] } = { imap: [], smtp: [] };
    while (Date.now() < outageEnds) {
      const [login, answer] = await Promise.all([imapLogin(), rcpt()]);
      expect(login.ok).toBe(false);
      expect(answer.code).toBeGreaterThanOrEqual(400);
      expect(answer.code).toBeLessThan(500);
      during.imap.push(login.ms);
      during.smtp.push(answer.ms);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    expect(Math.max(...during.imap), `IMAP answers during the outage: ${during.imap.join(', ')} ms`).toBeLessThan(10_000);
    expect(Math.max(...during.smtp), `SMTP answers during the outage: ${during.smtp.join(', ')} ms`).toBeLessThan(10_000);

    await pg.start();
    const back = Date.now();
    let imapBack = 0;
    let smtpBack = 0;
    while (Date.now() - back < 20_000 && (!imapBack || !smtpBack)) {
      if (!imapBack && (await imapLogin()).ok) imapBack = Date.now() - back;
      if (!smtpBack && (await rcpt()).code === 250) smtpBack = Date.now() - back;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    process.stdout.write(
      `outage: IMAP answered in ${during.imap.join(', ')} ms, SMTP in ${during.smtp.join(', ')} ms; back after: IMAP ${imapBack} ms, SMTP ${smtpBack} ms\n`,
    );
    expect(imapBack, 'IMAP logins back after (ms)').toBeGreaterThan(0);
    expect(imapBack).toBeLessThanOrEqual(5_000);
    expect(smtpBack, 'SMTP RCPT back after (ms)').toBeGreaterThan(0);
    expect(smtpBack).toBeLessThanOrEqual(5_000);
  }, 120_000);
});
