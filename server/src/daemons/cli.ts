import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/connection.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { listening, prepareMail, startMail, stopPostfix, type MailSettings } from './mail.ts';
import { answers, preparePowerDns, startPowerDns, type PowerDnsSettings } from './powerdns.ts';

// `npm run services -- start|stop|status`: the hosting daemons on loopback for development and
// tests, reading DATABASE_URL. For production (ports 53, 25, 993, TLS) see docs/deploy.md.

const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const dns = { address: '127.0.0.1', port: port('BERTH_DNS_PORT', 5300) };
const mailPorts = {
  address: '127.0.0.1',
  smtpPort: port('BERTH_SMTP_PORT', 2525),
  imapPort: port('BERTH_IMAP_PORT', 1143),
  lmtpPort: port('BERTH_LMTP_PORT', 2424),
  quotaStatusPort: port('BERTH_QUOTA_STATUS_PORT', 2626),
  replyPort: port('BERTH_REPLY_PORT', 2627),
  policyPort: port('BERTH_MAIL_POLICY_PORT', 2628),
  srsForwardPort: port('BERTH_SRS_FORWARD_PORT', 10001),
  srsReversePort: port('BERTH_SRS_REVERSE_PORT', 10002),
  relayHost: process.env.BERTH_RELAY_HOST ?? '',
};

const HELP = `Berth hosting services: npm run services -- <start|stop|status>

  start   PowerDNS on ${dns.address}:${dns.port} (UDP and TCP), Postfix (SMTP) on ${mailPorts.address}:${mailPorts.smtpPort},
          Dovecot (IMAP) on ${mailPorts.address}:${mailPorts.imapPort}, all reading DATABASE_URL
          (BERTH_DNS_PORT, BERTH_SMTP_PORT, BERTH_IMAP_PORT, BERTH_LMTP_PORT, BERTH_QUOTA_STATUS_PORT, BERTH_REPLY_PORT, BERTH_MAIL_POLICY_PORT to change;
          BERTH_RELAY_HOST=[host]:port sends outgoing mail through a relay)
  stop    stops what start started
  status  says what runs and whether it answers

Needs PostgreSQL (DATABASE_URL): the daemons read Berth's database, which the embedded one cannot share.`;

const say = (line: string) => process.stdout.write(`${line}\n`);
const config = loadConfig();
const runDir = path.resolve(config.BERTH_DATA_DIR, 'services');

/** Each daemon started detached, with the file its pid is kept in. */
const DAEMONS = {
  powerdns: { label: 'PowerDNS', pidFile: path.join(runDir, 'powerdns', 'pid') },
  dovecot: { label: 'Dovecot', pidFile: path.join(runDir, 'mail', 'dovecot.pid') },
  postfix: { label: 'Postfix', pidFile: path.join(runDir, 'mail', 'postfix.pid') },
  mailAgent: { label: 'Mail agent', pidFile: path.join(runDir, 'mail', 'mail-agent.pid') },
};
type Daemon = keyof typeof DAEMONS;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const runningPid = (daemon: Daemon): number | undefined => {
  const { pidFile } = DAEMONS[daemon];
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  return Number.isInteger(pid) && alive(pid) ? pid : undefined;
};
const remember = (daemon: Daemon, pid: number | undefined) => {
  mkdirSync(path.dirname(DAEMONS[daemon].pidFile), { recursive: true });
  writeFileSync(DAEMONS[daemon].pidFile, String(pid));
};

async function start(): Promise<void> {
  if (!config.DATABASE_URL) {
    console.error('The hosting services read PostgreSQL: set DATABASE_URL (the embedded database serves only the panel).');
    process.exit(2);
  }
  // Postfix and Dovecot reach their files below here as their own users: no private parents.
  mkdirSync(runDir, { recursive: true, mode: 0o755 });
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.BERTH_DATA_DIR });
  try {
    await migrateToLatest(database.db);
    const dnsPid = runningPid('powerdns');
    if (dnsPid) say(`DNS   PowerDNS runs already (pid ${dnsPid}) on ${dns.address}:${dns.port}`);
    else {
      const settings: PowerDnsSettings = { databaseUrl: config.DATABASE_URL, ...dns, runDir: path.join(runDir, 'powerdns') };
      await preparePowerDns(database.db, settings);
      const child = await startPowerDns(settings, { detached: true });
      remember('powerdns', child.pid);
      say(`DNS   PowerDNS on ${dns.address}:${dns.port} (UDP and TCP), pid ${child.pid}; log ${path.join(settings.runDir, 'pdns.log')}`);
    }
    const mailPid = runningPid('postfix') ?? runningPid('dovecot');
    if (mailPid) say(`MAIL  runs already (pid ${mailPid})`);
    else {
      const settings: MailSettings = { databaseUrl: config.DATABASE_URL, ...mailPorts, runDir: path.join(runDir, 'mail') };
      await prepareMail(database.db, settings);
      const mail = await startMail(settings, { detached: true });
      remember('dovecot', mail.dovecot.pid);
      remember('postfix', mail.postfix.pid);
      remember('mailAgent', mail.agent.pid);
      say(
        `MAIL  Postfix (SMTP) on ${mailPorts.address}:${mailPorts.smtpPort}, Dovecot (IMAP) on ${mailPorts.address}:${mailPorts.imapPort}; ` +
          `logs ${path.join(settings.runDir, 'postfix.log')}, ${path.join(settings.runDir, 'dovecot', 'dovecot.log')}`,
      );
    }
  } finally {
    await database.close();
  }
}

async function stopOne(daemon: Daemon): Promise<void> {
  const pid = runningPid(daemon);
  const { label, pidFile } = DAEMONS[daemon];
  if (!pid) {
    say(`${label} is not running`);
    return;
  }
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(pidFile, { force: true });
  say(`${label} stopped (pid ${pid})`);
}

async function stop(): Promise<void> {
  if (runningPid('postfix')) await stopPostfix(path.join(runDir, 'mail'));
  for (const daemon of ['postfix', 'mailAgent', 'dovecot', 'powerdns'] as const) await stopOne(daemon);
}

async function status(): Promise<void> {
  const checks: [Daemon, string, () => Promise<boolean>][] = [
    ['powerdns', `DNS   ${dns.address}:${dns.port}`, () => answers(dns.address, dns.port)],
    ['postfix', `SMTP  ${mailPorts.address}:${mailPorts.smtpPort}`, () => listening(mailPorts.address, mailPorts.smtpPort)],
    ['dovecot', `IMAP  ${mailPorts.address}:${mailPorts.imapPort}`, () => listening(mailPorts.address, mailPorts.imapPort)],
  ];
  for (const [daemon, where, check] of checks) {
    const pid = runningPid(daemon);
    const up = await check();
    say(`${where} ${DAEMONS[daemon].label} ${pid ? `running, pid ${pid}` : 'not running'}; ${up ? 'answers' : 'does not answer'}`);
    if (!pid || !up) process.exitCode = 1;
  }
}

const command = process.argv[2];
if (command === 'start') await start();
else if (command === 'stop') await stop();
else if (command === 'status') await status();
else {
  say(HELP);
  process.exitCode = command ? 2 : 0;
}
