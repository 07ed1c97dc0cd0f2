// Mail that leaves (issue 33): Berth's app in-process on a fresh PostgreSQL database, the mail host
// as the tests start it (server/src/daemons/mail.ts: Dovecot, postsrsd, the mail agent, rspamd,
// Postfix) relaying to an SMTP receiver on loopback.
//
// Messages a second through submission (587, STARTTLS, AUTH) -> DKIM signing by rspamd as the milter
// -> relay to the receiver, against the same Postfix with no milter on its submission listener
// (postconf -P, then a reload): BENCH_MAIL_MESSAGES (200) messages over 4 connections, timed from
// the first send until the receiver holds the last; the two take turns (load.ts inTurn), best of 3
// each. Goal: the signed path keeps >= 0.5 of Postfix alone.
import { execFileSync } from 'node:child_process';
import { chmodSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { openDatabase } from '../../server/src/db/connection.ts';
import { migrateToLatest } from '../../server/src/db/migrate.ts';
import { milterSocket, prepareMail, startMail, type RunningMail } from '../../server/src/daemons/mail.ts';
import { DKIM_KEYS_PURPOSE } from '../../server/src/modules/dns/dkim.ts';
import { mailHostSettings } from '../../server/test/mail-host.ts';
import { startSmtpReceiver } from '../../server/test/smtp-receiver.ts';
import { startBenchApp } from './berth-app.ts';
import { createBenchDatabase } from './database.ts';
import { inTurn } from './load.ts';

const ROUNDS = 3;
const GOAL = 0.5;
const PASSWORD = 'a bench mailbox passphrase 42';

export interface MailFigures {
  messages: number;
  /** Messages a second, best of ROUNDS each. */
  signed: number;
  unsigned: number;
}

export async function measureMailSigning(options: { messages?: number; log?: (line: string) => void } = {}): Promise<MailFigures> {
  const log = options.log ?? (() => {});
  const messages = options.messages ?? Number(process.env.BENCH_MAIL_MESSAGES ?? 200);
  const database = await createBenchDatabase();
  const handle = await openDatabase({ databaseUrl: database.url, dataDir: '' });
  const receiver = await startSmtpReceiver();
  let mail: RunningMail | undefined;
  let runDir: string | undefined;
  let closeApp = async () => {};
  try {
    await migrateToLatest(handle.db);
    const app = await startBenchApp(handle.db, database.url);
    closeApp = () => app.close();
    const domain = await app.call('POST', '/api/host/domain', { name: 'bench-mail.example' }, 201);
    await app.call(
      'POST',
      `/api/host/domain/${domain.data.id}/users`,
      { uid: 'bench', password: PASSWORD, password_confirmation: PASSWORD, quota_mb: 100 },
      201,
    );
    // A plan that lets the mailbox send as much as the bench asks (the default is 200 an hour).
    const plan = await app.call(
      'POST',
      '/api/system/shop/plans',
      { title: 'Bench mail', monthly_price: 100, yearly_price: 1000, mail_per_hour: 100_000 },
      201,
    );
    const owner = await handle.db
      .selectFrom('domains')
      .select(['owner_id', 'tenant_id'])
      .where('id', '=', domain.data.id)
      .executeTakeFirstOrThrow();
    const now = Date.now();
    await handle.db
      .insertInto('hosting_subscriptions')
      .values({
        tenant_id: owner.tenant_id,
        user_id: owner.owner_id,
        plan_id: plan.data.id,
        title: 'Bench mail',
        order_item_id: null,
        starts_at: new Date(now - 3_600_000),
        expires_at: new Date(now + 86_400_000),
      })
      .execute();

    const settings = await mailHostSettings(database.url, { relayPort: receiver.port, prefix: 'berth-bench-mail-' });
    settings.dkimKeys = app.secrets.derive(DKIM_KEYS_PURPOSE).exportKeys();
    runDir = settings.runDir;
    chmodSync(runDir, 0o755);
    await prepareMail(handle.db, settings);
    mail = await startMail(settings);
    const postfixDir = path.join(settings.runDir, 'postfix');
    const submission = `${settings.address}:${settings.submissionPort}/inet`;
    /** Whether the submission port greets a new connection within a second. */
    const greets = () =>
      new Promise<boolean>((resolve) => {
        const socket = connect({ host: settings.address, port: settings.submissionPort });
        const done = (answer: boolean) => {
          socket.destroy();
          resolve(answer);
        };
        socket.setTimeout(1_000, () => done(false));
        socket.once('data', (chunk) => done(chunk.toString('latin1').startsWith('220')));
        socket.once('error', () => done(false));
      });
    const milter = async (on: boolean) => {
      const value = on ? `unix:${milterSocket(settings)}` : '';
      execFileSync('postconf', ['-c', postfixDir, '-P', `${submission}/smtpd_milters=${value}`]);
      execFileSync('postfix', ['-c', postfixDir, 'reload'], { stdio: 'ignore' });
      // The reload starts new smtpd processes: the batch begins once one answers.
      for (let i = 0; i < 30 && !(await greets()); i++) await new Promise((resolve) => setTimeout(resolve, 200));
    };

    let round = 0;
    /** Messages a second for one batch, and whether what arrived was signed. */
    const batch = async (): Promise<{ rate: number; signed: boolean }> => {
      round++;
      const tag = `Bench ${round}`;
      // A new pool each round: connections of the last one were made by smtpd processes before the reload.
      const transport = nodemailer.createTransport({
        host: settings.address,
        port: settings.submissionPort,
        secure: false,
        requireTLS: true,
        tls: { rejectUnauthorized: false },
        auth: { user: 'bench@bench-mail.example', pass: PASSWORD },
        pool: true,
        maxConnections: 4,
        maxMessages: Infinity,
      });
      // An idle connection the pool loses after the batch (Postfix's reload ends its smtpd) is no failure of the batch.
      transport.on('error', () => undefined);
      const arrived = () => receiver.received.filter((message) => message.raw.includes(`Subject: ${tag} `)).length;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: messages }, (_, i) =>
          transport.sendMail({
            from: 'bench@bench-mail.example',
            to: 'someone@outside.test',
            subject: `${tag} ${i}`,
            text: `Message ${i} of ${messages}.\n`.repeat(20),
          }),
        ),
      );
      while (arrived() < messages) {
        if (performance.now() - started > 300_000) throw new Error(`only ${arrived()} of ${messages} messages arrived`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const rate = messages / ((performance.now() - started) / 1000);
      transport.close();
      const sample = receiver.received.find((message) => message.raw.includes(`Subject: ${tag} 0`));
      return { rate, signed: /^DKIM-Signature:/im.test(sample?.raw ?? '') };
    };

    // A first batch of each warms both paths (rspamd's first scans load its maps).
    await batch();
    const signed: number[] = [];
    const unsigned: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      await inTurn(i, [
        async () => {
          await milter(false);
          const plain = await batch();
          if (plain.signed) throw new Error('the batch without the milter arrived signed');
          unsigned.push(plain.rate);
        },
        async () => {
          await milter(true);
          const withSigning = await batch();
          if (!withSigning.signed) throw new Error('the batch through rspamd arrived unsigned');
          signed.push(withSigning.rate);
        },
      ]);
      log(`  round ${i + 1}: Postfix alone ${unsigned.at(-1)!.toFixed(1)} msg/s, with DKIM signing ${signed.at(-1)!.toFixed(1)} msg/s`);
    }
    return { messages, signed: Math.max(...signed), unsigned: Math.max(...unsigned) };
  } finally {
    await mail?.stop();
    await receiver.close();
    await closeApp();
    await handle.close();
    await database.drop();
    if (runDir && !process.env.BENCH_KEEP_MAIL) rmSync(runDir, { recursive: true, force: true });
  }
}

export function formatMailSigning(figures: MailFigures): string {
  const ratio = figures.signed / figures.unsigned;
  return [
    `Mail through submission to a relay (${figures.messages} messages, 4 connections, best of ${ROUNDS}):`,
    `  Postfix alone          ${figures.unsigned.toFixed(1)} msg/s`,
    `  with DKIM signing      ${figures.signed.toFixed(1)} msg/s (rspamd as the milter)`,
    `  ratio ${ratio.toFixed(2)} (goal >= ${GOAL}): ${ratio >= GOAL ? 'ABOVE GOAL' : 'BELOW GOAL'}`,
  ].join('\n');
}

// `node bench/src/mail-signing.ts` alone.
if (import.meta.main) {
  const figures = await measureMailSigning({ log: (line) => process.stdout.write(`${line}\n`) });
  process.stdout.write(`${formatMailSigning(figures)}\n`);
}
