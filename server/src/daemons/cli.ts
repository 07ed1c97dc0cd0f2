import { chmodSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { SecretBox } from '../lib/secret-box.ts';
import { CERTIFICATE_KEYS_PURPOSE } from '../modules/certificates/keys.ts';
import { DKIM_KEYS_PURPOSE } from '../modules/dns/dkim.ts';
import { openDatabase } from '../db/connection.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { mailPrograms, milterSocket, prepareMail, type MailSettings } from './mail.ts';
import { powerDnsProgram, preparePowerDns, type PowerDnsSettings } from './powerdns.ts';
import { supervisor } from './supervisor.ts';
import { prepareWeb, webPrograms, type WebSettings } from './web.ts';

// `npm run services -- start|stop|status`: the hosting daemons on loopback for development and
// tests, reading DATABASE_URL, under Debian's supervisor (a daemon that dies is started again at
// once). For production (ports 53, 25, 993, TLS, systemd units) see docs/deploy.md.

const port = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
function passiveRange(text: string): [number, number] {
  const [from, to] = text.split(':').map(Number);
  if (!from || !to || from > to || from < 1024 || to > 65535)
    throw new Error(`BERTH_FTP_PASSIVE_PORTS is not a range like 30000:30049: ${text}`);
  return [from, to];
}
const dns = { address: '127.0.0.1', port: port('BERTH_DNS_PORT', 5300) };
const mailPorts = {
  address: '127.0.0.1',
  smtpPort: port('BERTH_SMTP_PORT', 2525),
  imapPort: port('BERTH_IMAP_PORT', 1143),
  submissionPort: port('BERTH_SUBMISSION_PORT', 2587),
  smtpsPort: port('BERTH_SMTPS_PORT', 2465),
  imapsPort: port('BERTH_IMAPS_PORT', 1993),
  pop3Port: port('BERTH_POP3_PORT', 1110),
  pop3sPort: port('BERTH_POP3S_PORT', 1995),
  lmtpPort: port('BERTH_LMTP_PORT', 2424),
  quotaStatusPort: port('BERTH_QUOTA_STATUS_PORT', 2626),
  replyPort: port('BERTH_REPLY_PORT', 2627),
  policyPort: port('BERTH_MAIL_POLICY_PORT', 2628),
  srsForwardPort: port('BERTH_SRS_FORWARD_PORT', 10001),
  srsReversePort: port('BERTH_SRS_REVERSE_PORT', 10002),
  rspamdDns: process.env.BERTH_RSPAMD_DNS ?? '',
  ...(process.env.BERTH_RSPAMD_CACHE_DIR ? { rspamdCacheDir: process.env.BERTH_RSPAMD_CACHE_DIR } : {}),
  relayHost: process.env.BERTH_RELAY_HOST ?? '',
};

const web = {
  address: process.env.BERTH_WEB_ADDRESS ?? '127.0.0.1',
  httpPort: port('BERTH_HTTP_PORT', 8080),
  httpsPort: port('BERTH_HTTPS_PORT', 8443),
  serverName: process.env.BERTH_SERVER ?? 'web1',
  ftpPort: port('BERTH_FTP_PORT', 2121),
  passivePorts: passiveRange(process.env.BERTH_FTP_PASSIVE_PORTS ?? '30000:30199'),
};

const HELP = `Berth hosting services: npm run services -- <start|stop|status>

  start   PowerDNS on ${dns.address}:${dns.port} (UDP and TCP), Postfix (SMTP) on ${mailPorts.address}:${mailPorts.smtpPort},
          submission ${mailPorts.submissionPort} (STARTTLS) and ${mailPorts.smtpsPort} (TLS), Dovecot (IMAP) on
          ${mailPorts.address}:${mailPorts.imapPort}, IMAPS ${mailPorts.imapsPort}, POP3 ${mailPorts.pop3Port}, POP3S ${mailPorts.pop3sPort}, postsrsd, Berth's mail agent,
          rspamd (spam filter and DKIM signing milter on a socket),
          nginx (HTTP ${web.address}:${web.httpPort}, HTTPS ${web.httpsPort}) with PHP-FPM and Berth's web agent as server
          ${web.serverName}, Pure-FTPd (explicit FTPS ${web.address}:${web.ftpPort}, passive ${web.passivePorts.join('-')}), all reading
          DATABASE_URL, under supervisord (a daemon that dies is started again at once)
          (BERTH_DNS_PORT, BERTH_SMTP_PORT, BERTH_SUBMISSION_PORT, BERTH_SMTPS_PORT, BERTH_IMAP_PORT, BERTH_IMAPS_PORT,
          BERTH_POP3_PORT, BERTH_POP3S_PORT, BERTH_LMTP_PORT, BERTH_QUOTA_STATUS_PORT, BERTH_REPLY_PORT,
          BERTH_MAIL_POLICY_PORT, BERTH_SRS_FORWARD_PORT, BERTH_SRS_REVERSE_PORT, BERTH_HTTP_PORT, BERTH_HTTPS_PORT,
          BERTH_FTP_PORT, BERTH_FTP_PASSIVE_PORTS, BERTH_SERVER, BERTH_WEB_ROOT, BERTH_WEB_USER_PREFIX to change;
          BERTH_RELAY_HOST=[host]:port sends outgoing mail through a relay, BERTH_RSPAMD_DNS=host:port is the
          name server rspamd asks instead of the system's, BERTH_RSPAMD_CACHE_DIR where it keeps compiled expressions,
          BERTH_RSPAMD_REDIS=host:port the Redis its spam classifier learns into: REDIS_URL's, else 127.0.0.1:6379)
  stop    stops every daemon and the supervisor
  status  what supervisorctl says of each daemon, and whether it answers

Needs PostgreSQL (DATABASE_URL): the daemons read Berth's database, which the embedded one cannot share.`;

const say = (line: string) => process.stdout.write(`${line}\n`);
const config = loadConfig();
const runDir = path.resolve(config.BERTH_DATA_DIR, 'services');
const databaseUrl = config.DATABASE_URL ?? '';
const dnsSettings: PowerDnsSettings = { databaseUrl, ...dns, runDir: path.join(runDir, 'powerdns') };
// The agents open certificate and DKIM keys with the keys derived for them, and nothing else of the server's secrets.
const secrets = SecretBox.load({
  key: config.BERTH_SECRET_KEY,
  oldKeys: config.BERTH_SECRET_KEYS_OLD,
  dataDir: config.BERTH_DATA_DIR,
});
const certificateKeys = secrets.derive(CERTIFICATE_KEYS_PURPOSE).exportKeys();
const mailSettings: MailSettings = {
  databaseUrl,
  ...mailPorts,
  runDir: path.join(runDir, 'mail'),
  certificateKeys,
  dkimKeys: secrets.derive(DKIM_KEYS_PURPOSE).exportKeys(),
  // rspamd's Bayes classifier learns into the Redis Berth uses (REDIS_URL), else the usual local one.
  rspamdRedis:
    process.env.BERTH_RSPAMD_REDIS ??
    (config.REDIS_URL ? `${new URL(config.REDIS_URL).hostname}:${new URL(config.REDIS_URL).port || 6379}` : '127.0.0.1:6379'),
};
const webSettings: WebSettings = {
  databaseUrl,
  ...web,
  runDir: path.join(runDir, 'web'),
  webRoot: path.resolve(process.env.BERTH_WEB_ROOT ?? path.join(config.BERTH_DATA_DIR, 'www')),
  userPrefix: process.env.BERTH_WEB_USER_PREFIX ?? 'berth',
  certificateKeys,
  // Roundcube (where Debian's roundcube-core is installed) reaches the mail host's IMAP in clear on
  // loopback and its submission port by STARTTLS, as any mail client would.
  webmail: {
    host: process.env.BERTH_WEBMAIL_HOST ?? `webmail.${config.BERTH_PUBLIC_URL ? new URL(config.BERTH_PUBLIC_URL).hostname : 'localhost'}`,
    imap: process.env.BERTH_WEBMAIL_IMAP ?? `${mailPorts.address}:${mailPorts.imapPort}`,
    smtp: process.env.BERTH_WEBMAIL_SMTP ?? `tls://${mailPorts.address}:${mailPorts.submissionPort}`,
  },
};
const programs = [powerDnsProgram(dnsSettings), ...mailPrograms(mailSettings), ...webPrograms(webSettings)];
const services = supervisor(runDir, programs);
const WHERE: Record<string, string> = {
  powerdns: `DNS   ${dns.address}:${dns.port} (UDP and TCP)`,
  dovecot: `IMAP  ${mailPorts.address}:${mailPorts.imapPort}, IMAPS ${mailPorts.imapsPort}, POP3 ${mailPorts.pop3Port}, POP3S ${mailPorts.pop3sPort}`,
  postsrsd: `SRS   127.0.0.1:${mailPorts.srsForwardPort}, ${mailPorts.srsReversePort}`,
  'mail-agent': `AGENT 127.0.0.1:${mailPorts.policyPort}`,
  rspamd: `SPAM  ${milterSocket(mailSettings)} (milter: filter, DKIM)`,
  postfix: `SMTP  ${mailPorts.address}:${mailPorts.smtpPort}, submission ${mailPorts.submissionPort} and ${mailPorts.smtpsPort}`,
  'web-agent': `WEB   server ${web.serverName}, sites in ${webSettings.webRoot}`,
  nginx: `HTTP  ${web.address}:${web.httpPort}, HTTPS ${web.address}:${web.httpsPort}`,
  'pure-ftpd': `FTPS  ${web.address}:${web.ftpPort}, passive ${web.passivePorts.join('-')}`,
};

async function start(): Promise<void> {
  if (!databaseUrl) {
    console.error('The hosting services read PostgreSQL: set DATABASE_URL (the embedded database serves only the panel).');
    process.exit(2);
  }
  // Postfix and Dovecot reach their files below here as their own users: the data directory lets
  // them pass (execute only: they list nothing of it, and its secrets stay 0600).
  mkdirSync(runDir, { recursive: true, mode: 0o755 });
  const dataDir = path.resolve(config.BERTH_DATA_DIR);
  chmodSync(dataDir, (statSync(dataDir).mode & 0o7777) | 0o011);
  const database = await openDatabase({ databaseUrl, dataDir: config.BERTH_DATA_DIR });
  try {
    await migrateToLatest(database.db);
    // Preparing again is safe while they run: the roles keep their passwords (daemons/queries.ts).
    await preparePowerDns(database.db, dnsSettings);
    await prepareMail(database.db, mailSettings);
    await prepareWeb(database.db, webSettings);
  } finally {
    await database.close();
  }
  const how = await services.start();
  say(
    how === 'running'
      ? `supervisord runs already; started what was stopped (${services.config})`
      : `supervisord started (${services.config})`,
  );
  // 30 s for all of them, more where a program's first start takes longer (rspamd compiling its expressions).
  const deadline = Date.now() + Math.max(30_000, ...programs.map((program) => program.startupMs ?? 0));
  for (const program of programs) {
    while (!(await program.ready()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    const up = await program.ready();
    say(
      `${WHERE[program.name] ?? program.name} ${program.name} ${up ? 'answers' : 'does not answer yet'}; log ${path.join(runDir, `${program.name}.log`)}`,
    );
    if (!up) process.exitCode = 1;
  }
}

async function stop(): Promise<void> {
  if (!services.running()) {
    say('supervisord is not running');
    return;
  }
  await services.stop();
  say('every daemon and supervisord stopped');
}

async function status(): Promise<void> {
  const states = services.running() ? await services.status() : new Map<string, { state: string; pid: number | undefined }>();
  for (const program of programs) {
    const state = states.get(program.name);
    const up = await program.ready();
    say(
      `${WHERE[program.name] ?? program.name} ${program.name} ${state ? `${state.state}${state.pid ? `, pid ${state.pid}` : ''}` : 'not running'}; ${up ? 'answers' : 'does not answer'}`,
    );
    if (state?.state !== 'RUNNING' || !up) process.exitCode = 1;
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
