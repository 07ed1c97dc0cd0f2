// Mail that arrives (issue 33): Berth's app in-process on a fresh PostgreSQL database, the mail
// host as the tests start it (server/src/daemons/mail.ts), mail sent to its port 25.
//
// Messages a second delivered into mailboxes (port 25 -> rspamd -> the policy services -> LMTP ->
// Dovecot -> Maildir) with Berth's lookups (Postfix's pgsql maps of domains, mailboxes and
// forwarders; Dovecot's SQL passdb and userdb), against the same Postfix and Dovecot with the same
// addresses in static tables (Postfix hash maps written by postmap, a Dovecot passwd-file), each
// switched with a reload: BENCH_MAIL_MESSAGES (200) messages to 4 mailboxes over 4 connections
// while the host serves BENCH_MAIL_DOMAINS (2,000) other domains, each with a mailbox and a forwarder,
// timed from the first send until the last file is in the Maildirs; in turn (load.ts inTurn), best
// of 3 each.
// Goal: Berth's lookups keep >= 0.8 of the static tables.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import nodemailer from 'nodemailer';
import { openDatabase } from '../../server/src/db/connection.ts';
import { migrateToLatest } from '../../server/src/db/migrate.ts';
import { prepareMail, startMail, type RunningMail } from '../../server/src/daemons/mail.ts';
import { mailHostSettings } from '../../server/test/mail-host.ts';
import { inTurn } from './load.ts';
import { startBenchApp } from './berth-app.ts';
import { createBenchDatabase } from './database.ts';

const ROUNDS = 3;
const GOAL = 0.8;
const PASSWORD = 'a bench mailbox passphrase 43';
const BOXES = ['one', 'two', 'three', 'four'];
const DOMAIN = 'bench-in.example';
/** Other domains the mail host serves meanwhile (BENCH_MAIL_DOMAINS). */
const FILLER_DOMAINS = Number(process.env.BENCH_MAIL_DOMAINS ?? 2_000);

export interface DeliveryFigures {
  messages: number;
  /** Messages a second, best of ROUNDS each. */
  berth: number;
  staticMaps: number;
}

export async function measureMailDelivery(options: { messages?: number; log?: (line: string) => void } = {}): Promise<DeliveryFigures> {
  const log = options.log ?? (() => {});
  const messages = options.messages ?? Number(process.env.BENCH_MAIL_MESSAGES ?? 200);
  const database = await createBenchDatabase();
  const handle = await openDatabase({ databaseUrl: database.url, dataDir: '' });
  let mail: RunningMail | undefined;
  let runDir: string | undefined;
  let closeApp = async () => {};
  try {
    await migrateToLatest(handle.db);
    const app = await startBenchApp(handle.db, database.url);
    closeApp = () => app.close();
    const domain = await app.call('POST', '/api/host/domain', { name: DOMAIN }, 201);
    for (const uid of BOXES) {
      await app.call(
        'POST',
        `/api/host/domain/${domain.data.id}/users`,
        { uid, password: PASSWORD, password_confirmation: PASSWORD, quota_mb: 1000 },
        201,
      );
    }
    // Other customers' domains beside it, each with a mailbox and a forwarder: the lookups are timed
    // on a mail host that serves more than the four mailboxes the messages go to.
    await sql`insert into domains (tenant_id, owner_id, name)
      select d.tenant_id, d.owner_id, 'filler' || g || '.example' from domains d cross join generate_series(1, ${FILLER_DOMAINS}) g
      where d.id = ${domain.data.id}`.execute(handle.db);
    await sql`insert into domain_users (tenant_id, domain_id, uid, password_hash)
      select d.tenant_id, d.id, 'box@' || d.name, u.password_hash from domains d, domain_users u
      where d.name like 'filler%' and u.domain_id = ${domain.data.id} and u.uid = ${`${BOXES[0]}@${DOMAIN}`}`.execute(handle.db);
    await sql`insert into mail_aliases (tenant_id, domain_id, local_part, destination)
      select d.tenant_id, d.id, 'info', 'box@' || d.name from domains d where d.name like 'filler%'`.execute(handle.db);
    const boxes = await handle.db
      .selectFrom('domain_users')
      .select(['id', 'uid', 'quota_mb'])
      .where('domain_id', '=', domain.data.id)
      .execute();

    const settings = await mailHostSettings(database.url, { prefix: 'berth-bench-in-' });
    runDir = settings.runDir;
    chmodSync(runDir, 0o755);
    await prepareMail(handle.db, settings);
    mail = await startMail(settings);
    const postfixDir = path.join(settings.runDir, 'postfix');
    const dovecotConf = path.join(settings.runDir, 'dovecot', 'dovecot.conf');
    const mailDir = path.join(settings.runDir, 'mailboxes');

    // The same addresses as static tables: Postfix hash maps, and a passwd-file for Dovecot (its
    // userdb fields as the SQL userdb answers them).
    const staticDir = path.join(settings.runDir, 'static');
    execFileSync('mkdir', ['-p', staticDir]);
    writeFileSync(path.join(staticDir, 'domains'), `${DOMAIN} OK\n`);
    writeFileSync(path.join(staticDir, 'mailboxes'), boxes.map((box) => `${box.uid} OK\n`).join(''));
    writeFileSync(path.join(staticDir, 'aliases'), `postmaster@${DOMAIN} ${boxes[0]!.uid}\n`);
    // postmap reads a configuration: the empty one the mail host keeps for its own tables (daemons/mail.ts).
    const postmapConfig = path.join(settings.runDir, 'tls', 'postmap');
    for (const map of ['domains', 'mailboxes', 'aliases'])
      execFileSync('postmap', ['-c', postmapConfig, `hash:${path.join(staticDir, map)}`]);
    const users = path.join(staticDir, 'users');
    writeFileSync(
      users,
      boxes.map((box) => `${box.uid}:::::${path.join(mailDir, String(box.id))}::quota_rule=*:bytes=${box.quota_mb * 1048576}\n`).join(''),
    );
    chownSync(users, 0, Number(execFileSync('id', ['-g', 'dovecot'], { encoding: 'utf8' }).trim()));
    chmodSync(users, 0o640);
    const sqlConf = readFileSync(dovecotConf, 'utf8');
    const staticConf = sqlConf.replace(
      /userdb \{\n\s+driver = sql\n\s+args = [^\n]+\n\}/,
      `userdb {\n  driver = passwd-file\n  args = ${users}\n}`,
    );
    if (staticConf === sqlConf) throw new Error("Dovecot's userdb block was not found");
    const sqlMaps = ['domains', 'mailboxes', 'aliases'].map((map) => `proxy:pgsql:${postfixDir}/pgsql-${map}.cf`);
    const hashMaps = ['domains', 'mailboxes', 'aliases'].map((map) => `hash:${path.join(staticDir, map)}`);
    const use = async (lookups: 'berth' | 'static') => {
      const [domains, mailboxes, aliases] = lookups === 'berth' ? sqlMaps : hashMaps;
      execFileSync('postconf', [
        '-c',
        postfixDir,
        '-e',
        `virtual_mailbox_domains=${domains}`,
        `virtual_mailbox_maps=${mailboxes}`,
        `virtual_alias_maps=${aliases}`,
      ]);
      writeFileSync(dovecotConf, lookups === 'berth' ? sqlConf : staticConf);
      execFileSync('postfix', ['-c', postfixDir, 'reload'], { stdio: 'ignore' });
      execFileSync('doveadm', ['-c', dovecotConf, 'reload'], { stdio: 'ignore' });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    };
    const delivered = () =>
      boxes.reduce((sum, box) => {
        const folder = path.join(mailDir, String(box.id), 'Maildir', 'new');
        return sum + (existsSync(folder) ? readdirSync(folder).length : 0);
      }, 0);

    let round = 0;
    const batch = async (): Promise<number> => {
      round++;
      const before = delivered();
      const transport = nodemailer.createTransport({
        host: settings.address,
        port: settings.smtpPort,
        secure: false,
        ignoreTLS: true,
        name: 'sender.bench.test',
        pool: true,
        maxConnections: 4,
        maxMessages: Infinity,
      });
      transport.on('error', () => undefined);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: messages }, (_, i) =>
          transport.sendMail({
            from: 'sender@bench.test',
            to: boxes[i % boxes.length]!.uid,
            subject: `Round ${round} message ${i}`,
            text: `Message ${i} of ${messages}, about the quarterly meeting and its minutes.\n`.repeat(20),
          }),
        ),
      );
      while (delivered() - before < messages) {
        if (performance.now() - started > 300_000) throw new Error(`only ${delivered() - before} of ${messages} messages arrived`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      transport.close();
      return messages / ((performance.now() - started) / 1000);
    };

    await batch();
    const berth: number[] = [];
    const staticMaps: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      await inTurn(i, [
        async () => {
          await use('static');
          staticMaps.push(await batch());
        },
        async () => {
          await use('berth');
          berth.push(await batch());
        },
      ]);
      log(`  round ${i + 1}: static tables ${staticMaps.at(-1)!.toFixed(1)} msg/s, Berth's lookups ${berth.at(-1)!.toFixed(1)} msg/s`);
    }
    return { messages, berth: Math.max(...berth), staticMaps: Math.max(...staticMaps) };
  } finally {
    await mail?.stop();
    await closeApp();
    await handle.close();
    await database.drop();
    if (runDir && !process.env.BENCH_KEEP_MAIL) rmSync(runDir, { recursive: true, force: true });
  }
}

export function formatMailDelivery(figures: DeliveryFigures): string {
  const ratio = figures.berth / figures.staticMaps;
  return [
    `Mail delivered into mailboxes from port 25 (${figures.messages} messages to ${BOXES.length} mailboxes among ${FILLER_DOMAINS + 1} domains, 4 connections, best of ${ROUNDS}):`,
    `  static tables          ${figures.staticMaps.toFixed(1)} msg/s (Postfix hash maps, Dovecot passwd-file)`,
    `  Berth's lookups        ${figures.berth.toFixed(1)} msg/s (pgsql maps through proxymap, SQL userdb)`,
    `  ratio ${ratio.toFixed(2)} (goal >= ${GOAL}): ${ratio >= GOAL ? 'ABOVE GOAL' : 'BELOW GOAL'}`,
  ].join('\n');
}

// `node bench/src/mail-delivery.ts` alone.
if (import.meta.main) {
  const figures = await measureMailDelivery({ log: (line) => process.stdout.write(`${line}\n`) });
  process.stdout.write(`${formatMailDelivery(figures)}\n`);
}
