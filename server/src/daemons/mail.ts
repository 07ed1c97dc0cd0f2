import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { userInfo } from 'node:os';
import { execFileSync } from 'node:child_process';
import type { Db } from '../db/connection.ts';
import { databaseTemplateValues, renderTemplate } from './powerdns.ts';
import { ensureDefaultCertificate } from './tls.ts';
import { daemonRoleName, grantSchemaReader } from './queries.ts';
import type { MailAgentSettings } from './mail-agent.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const POSTFIX_TEMPLATES = path.join(repoRoot, 'deploy/postfix');
const DOVECOT_TEMPLATES = path.join(repoRoot, 'deploy/dovecot');
const RSPAMD_TEMPLATES = path.join(repoRoot, 'deploy/rspamd');
/** Debian's rspamd configuration, which reads Berth's from LOCAL_CONFDIR (deploy/rspamd). */
const RSPAMD_CONFIG = '/etc/rspamd/rspamd.conf';
/** The role Postfix and Dovecot log in as (one per database, daemons/queries.ts): it reads the schema `mail` and nothing else. */
export const mailRoleOf = (databaseUrl: string) => daemonRoleName('berth_mail', databaseUrl);
/** The name the mail host greets with, and signs SRS senders with, unless told otherwise. */
const DEFAULT_HOSTNAME = 'mail.berth.localhost';
/** Where the mail host's internal listeners bind, in every rendering. */
export const INTERNAL_ADDRESS = '127.0.0.1';
const AGENT = path.join(repoRoot, 'server/src/daemons/mail-agent.ts');

export interface MailSettings {
  /** Berth's database (an admin connection is used once, to grant the daemons' role). */
  databaseUrl: string;
  address: string;
  smtpPort: number;
  imapPort: number;
  /** Submission with STARTTLS required before AUTH (587), and with implicit TLS (465). */
  submissionPort: number;
  smtpsPort: number;
  /** IMAP over TLS (993), POP3 with STARTTLS (110) and over TLS (995). */
  imapsPort: number;
  pop3Port: number;
  pop3sPort: number;
  lmtpPort: number;
  quotaStatusPort: number;
  /** Postfix's listener for Dovecot's autoresponder replies (it relays for the mail host only). */
  replyPort: number;
  /** The mail agent's end-of-data policy service (daemons/mail-agent.ts); loopback like LMTP. */
  policyPort: number;
  /** postsrsd's forward and reverse lookups (SRS for forwarded mail); loopback like LMTP. */
  srsForwardPort: number;
  srsReversePort: number;
  /** The DNS server rspamd asks (`host:port`); empty: the system's resolvers. */
  rspamdDns?: string;
  /** Where rspamd keeps compiled expressions, shared by the mail hosts of one machine; default: its own. */
  rspamdCacheDir?: string;
  /** The Redis (`host:port`) rspamd's Bayes classifier learns into; empty: no learning. */
  rspamdRedis?: string;
  /** rspamd's test patterns (GTUBE-like strings for each action): the daemon tests only. */
  rspamdTestPatterns?: boolean;
  /** Where outgoing mail goes instead of the recipient's MX (`[host]:port`); empty: the MX. */
  relayHost?: string;
  /** Configuration, queue, mailboxes and logs of both daemons. */
  runDir: string;
  /** The host name Postfix greets with. */
  hostname?: string;
  /** The keys certificate keys are sealed under (SecretBox.derive(CERTIFICATE_KEYS_PURPOSE).exportKeys()): the mail agent writes each domain's files. */
  certificateKeys?: string;
  /** The keys DKIM keys are sealed under (SecretBox.derive(DKIM_KEYS_PURPOSE).exportKeys()): the mail agent writes them for rspamd. */
  dkimKeys?: string;
}

/** Debian's accounts the daemons run as: mail is stored as `mail`, Postfix runs as `postfix`. */
const idOf = (kind: 'u' | 'g', name: string) => Number(execFileSync('id', [`-${kind}`, name], { encoding: 'utf8' }).trim());

const dirs = (settings: MailSettings) => ({
  postfix: path.join(settings.runDir, 'postfix'),
  queue: path.join(settings.runDir, 'postfix-queue'),
  data: path.join(settings.runDir, 'postfix-data'),
  dovecot: path.join(settings.runDir, 'dovecot'),
  mail: path.join(settings.runDir, 'mailboxes'),
  rspamd: path.join(settings.runDir, 'rspamd'),
  /** rspamd's controller socket: rspamd and the mail user (Dovecot's training pipe) may enter. */
  rspamdController: path.join(settings.runDir, 'rspamd-controller'),
  /** rspamd's milter socket: rspamd and Postfix may enter. */
  rspamdMilter: path.join(settings.runDir, 'rspamd-milter'),
  /** Dovecot's global Sieve scripts (training) and the program they may run. */
  sieve: path.join(settings.runDir, 'sieve'),
  dkim: path.join(settings.runDir, 'dkim'),
});

/** Grants the daemons' role and writes both daemons' configuration into runDir. */
export async function prepareMail(db: Db, settings: MailSettings): Promise<void> {
  const role = mailRoleOf(settings.databaseUrl);
  const password = await grantSchemaReader(db, role, 'mail');
  const where = dirs(settings);
  const values = {
    ...databaseTemplateValues(settings.databaseUrl, role, password),
    address: settings.address,
    smtp_port: settings.smtpPort,
    imap_port: settings.imapPort,
    submission_port: settings.submissionPort,
    smtps_port: settings.smtpsPort,
    imaps_port: settings.imapsPort,
    pop3_port: settings.pop3Port,
    pop3s_port: settings.pop3sPort,
    // The mail host's certificate: self-signed until the certificates issue gives each name its own.
    tls_cert: path.join(tlsDir(settings), 'default.crt'),
    tls_key: path.join(tlsDir(settings), 'default.key'),
    tls_names: tlsNamesFile(settings),
    lmtp_port: settings.lmtpPort,
    quota_status_port: settings.quotaStatusPort,
    reply_port: settings.replyPort,
    policy_port: settings.policyPort,
    srs_forward_port: settings.srsForwardPort,
    srs_reverse_port: settings.srsReversePort,
    milter_socket: milterSocket(settings),
    dkim_dir: where.dkim,
    hs_cache_dir: rspamdCacheDir(settings),
    dns_block: settings.rspamdDns ? `dns { nameserver = ["${rspamdDnsServer(settings.rspamdDns)}"]; }` : '',
    bayes_redis: settings.rspamdRedis ? `servers = "${redisServer(settings.rspamdRedis)}";` : '',
    test_patterns: settings.rspamdTestPatterns ? 'true' : 'false',
    controller_socket: path.join(where.rspamdController, 'controller.sock'),
    sieve_dir: where.sieve,
    // LMTP, the policy services and the replies listener take unauthenticated mail: loopback only,
    // whatever address SMTP and IMAP are published on.
    internal_address: INTERNAL_ADDRESS,
    relay_host: settings.relayHost ?? '',
    hostname: settings.hostname ?? DEFAULT_HOSTNAME,
    config_dir: where.postfix,
    queue_dir: where.queue,
    data_dir: where.data,
    log_file: path.join(settings.runDir, 'postfix.log'),
    log_dir: settings.runDir,
    run_dir: where.dovecot,
    mail_dir: where.mail,
    mail_user: 'mail',
    mail_group: 'mail',
    instance: `berth-${settings.imapPort}`,
  };
  // The daemons' own users must reach their files below runDir.
  mkdirSync(settings.runDir, { recursive: true });
  chmodSync(settings.runDir, 0o755);
  for (const dir of [where.postfix, where.dovecot, where.mail]) mkdirSync(dir, { recursive: true, mode: 0o755 });
  chownSync(where.mail, idOf('u', 'mail'), idOf('g', 'mail'));
  // Postfix makes its queue's subdirectories (postfix check) but not the queue itself.
  mkdirSync(where.queue, { recursive: true, mode: 0o755 });
  mkdirSync(where.data, { recursive: true, mode: 0o700 });
  chownSync(where.data, idOf('u', 'postfix'), idOf('g', 'postfix'));
  // Dovecot's authentication socket for Postfix's submission (SASL) is made in Postfix's private
  // queue folder, which Dovecot starts before Postfix has made it.
  const privateDir = path.join(where.queue, 'private');
  mkdirSync(privateDir, { recursive: true, mode: 0o700 });
  chownSync(privateDir, idOf('u', 'postfix'), 0);
  await ensureDefaultCertificate(tlsDir(settings));
  // Each domain's certificate by name: empty until the mail agent writes them (it keeps both up to date).
  if (!existsSync(tlsNamesFile(settings))) writeFileSync(tlsNamesFile(settings), '', { mode: 0o600 });
  if (!existsSync(sniMapFile(settings))) writeFileSync(sniMapFile(settings), '', { mode: 0o600 });
  const postfixGroup = idOf('g', 'postfix');
  const write = (from: string, to: string, mode: number, group?: number) => {
    writeFileSync(to, renderTemplate(readFileSync(from, 'utf8'), values), { mode });
    chmodSync(to, mode);
    if (group !== undefined) chownSync(to, userInfo().uid, group);
  };
  write(path.join(POSTFIX_TEMPLATES, 'main.cf'), path.join(where.postfix, 'main.cf'), 0o644);
  write(path.join(POSTFIX_TEMPLATES, 'master.cf'), path.join(where.postfix, 'master.cf'), 0o644);
  // postmap reads a configuration; the mail host's own would make it check the published address,
  // so it gets an empty one of its own (defaults are all a hash table needs).
  mkdirSync(postmapConfigDir(settings), { recursive: true, mode: 0o700 });
  writeFileSync(path.join(postmapConfigDir(settings), 'main.cf'), '');
  execFileSync('postmap', ['-c', postmapConfigDir(settings), '-F', `hash:${sniMapFile(settings)}`]);
  // Passwords: readable by Postfix's daemons (group postfix), nobody else.
  for (const map of ['domains', 'mailboxes', 'aliases', 'senders']) {
    write(path.join(POSTFIX_TEMPLATES, `pgsql-${map}.cf`), path.join(where.postfix, `pgsql-${map}.cf`), 0o640, postfixGroup);
  }
  write(path.join(DOVECOT_TEMPLATES, 'dovecot.conf'), path.join(where.dovecot, 'dovecot.conf'), 0o644);
  write(path.join(DOVECOT_TEMPLATES, 'dovecot-sql.conf.ext'), path.join(where.dovecot, 'dovecot-sql.conf.ext'), 0o600);
  // Read by Dovecot's dict process, which runs as Dovecot's own internal user.
  const dict = path.join(where.dovecot, 'dovecot-dict-sieve.conf.ext');
  write(path.join(DOVECOT_TEMPLATES, 'dovecot-dict-sieve.conf.ext'), dict, 0o640, idOf('g', 'dovecot'));
  // rspamd's own configuration (Debian's, with Berth's below LOCAL_CONFDIR) and its state, its user's.
  const rspamdUser = { uid: idOf('u', '_rspamd'), gid: idOf('g', '_rspamd') };
  for (const sub of ['local.d', 'override.d']) {
    mkdirSync(path.join(where.rspamd, sub), { recursive: true, mode: 0o755 });
    for (const name of readdirSync(path.join(RSPAMD_TEMPLATES, sub))) {
      write(path.join(RSPAMD_TEMPLATES, sub, name), path.join(where.rspamd, sub, name), 0o644);
    }
  }
  for (const dir of [...Object.values(rspamdDirs(settings)), rspamdCacheDir(settings)]) {
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chownSync(dir, rspamdUser.uid, rspamdUser.gid);
  }
  mkdirSync(where.dkim, { recursive: true, mode: 0o700 });
  chownSync(where.dkim, rspamdUser.uid, rspamdUser.gid);
  const mailUser = { uid: idOf('u', 'mail'), gid: idOf('g', 'mail') };
  mkdirSync(where.rspamdController, { recursive: true, mode: 0o750 });
  chmodSync(where.rspamdController, 0o750);
  chownSync(where.rspamdController, rspamdUser.uid, mailUser.gid);
  mkdirSync(where.rspamdMilter, { recursive: true, mode: 0o750 });
  chmodSync(where.rspamdMilter, 0o750);
  chownSync(where.rspamdMilter, rspamdUser.uid, idOf('g', 'postfix'));
  // The training scripts, compiled by Dovecot as the mail user on first use (so the folder is its).
  mkdirSync(path.join(where.sieve, 'bin'), { recursive: true, mode: 0o755 });
  for (const name of ['learn-spam.sieve', 'learn-ham.sieve']) {
    write(path.join(DOVECOT_TEMPLATES, 'sieve', name), path.join(where.sieve, name), 0o644);
  }
  write(path.join(DOVECOT_TEMPLATES, 'sieve', 'rspamd-learn'), path.join(where.sieve, 'bin', 'rspamd-learn'), 0o755);
  chownSync(where.sieve, mailUser.uid, mailUser.gid);
  const agent: MailAgentSettings = {
    databaseUrl: roleUrl(settings.databaseUrl, role, password),
    mailDir: where.mail,
    dovecotConfig: path.join(where.dovecot, 'dovecot.conf'),
    postfixConfig: where.postfix,
    policyAddress: INTERNAL_ADDRESS,
    policyPort: settings.policyPort,
    quotaStatusPort: settings.quotaStatusPort,
    tls: {
      dir: path.join(tlsDir(settings), 'names'),
      dovecotNames: tlsNamesFile(settings),
      // Dovecot's and Postfix's default (ssl_cert, smtpd_tls_cert_file): the panel's own certificate once it has one.
      defaultBase: path.join(tlsDir(settings), 'default'),
      postfixSniMap: sniMapFile(settings),
      postmapConfig: postmapConfigDir(settings),
      keys: settings.certificateKeys ?? '',
    },
    dkim: { dir: where.dkim, ...rspamdUser, keys: settings.dkimKeys ?? '' },
    postfixLog: path.join(settings.runDir, 'postfix.log'),
  };
  writeFileSync(agentSettingsFile(settings), JSON.stringify(agent), { mode: 0o600 });
  // SRS signs rewritten senders with a secret of the mail host: made once, kept (a new one would
  // leave bounces to earlier forwards without a way back).
  const secret = srsSecretFile(settings);
  if (!existsSync(secret)) writeFileSync(secret, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
}

const tlsDir = (settings: MailSettings) => path.join(settings.runDir, 'tls');
/**
 * rspamd's milter, which Postfix's smtpd asks about every message (filter and DKIM signature). A
 * socket, not a port on loopback: over TCP the milter's small exchanges waited for delayed
 * acknowledgements, 40 ms a message (bench/src/mail-signing.ts: 52 ms per message sent against 12
 * ms), and no local process but Postfix may ask it to sign.
 */
export const milterSocket = (settings: MailSettings) => path.join(dirs(settings).rspamdMilter, 'milter.sock');
const tlsNamesFile = (settings: MailSettings) => path.join(tlsDir(settings), 'names.conf');
const sniMapFile = (settings: MailSettings) => path.join(dirs(settings).postfix, 'sni');
const postmapConfigDir = (settings: MailSettings) => path.join(tlsDir(settings), 'postmap');

/** rspamd's state, pid file and log (its DBDIR, RUNDIR and LOGDIR). */
const rspamdDirs = (settings: MailSettings) => ({
  db: path.join(dirs(settings).rspamd, 'db'),
  run: path.join(dirs(settings).rspamd, 'run'),
  log: path.join(dirs(settings).rspamd, 'log'),
});
const rspamdCacheDir = (settings: MailSettings) => settings.rspamdCacheDir ?? path.join(dirs(settings).rspamd, 'cache');
/** `host:port` as rspamd wants a server's address; nothing else gets into its configuration. */
function hostPort(server: string, what: string): string {
  if (!/^[0-9.]+:\d{1,5}$|^\[[0-9a-f:]+\]:\d{1,5}$/i.test(server)) throw new Error(`not a ${what} server address (host:port): ${server}`);
  return server;
}
const rspamdDnsServer = (server: string) => hostPort(server, 'DNS');
/** `host:port` of a Redis (a name allowed): nothing else gets into rspamd's configuration. */
function redisServer(server: string): string {
  if (!/^[a-z0-9.-]+:\d{1,5}$/i.test(server)) return hostPort(server, 'Redis');
  return server;
}

/** rspamd in the foreground with Berth's configuration; as root it runs as its own user. */
export function rspamdArgs(settings: MailSettings): string[] {
  const where = rspamdDirs(settings);
  const asRoot = userInfo().uid === 0 ? ['-u', '_rspamd', '-g', '_rspamd'] : [];
  return [
    '-f',
    '-c',
    RSPAMD_CONFIG,
    ...asRoot,
    `--var=LOCAL_CONFDIR=${dirs(settings).rspamd}`,
    `--var=DBDIR=${where.db}`,
    `--var=RUNDIR=${where.run}`,
    `--var=LOGDIR=${where.log}`,
  ];
}

const srsSecretFile = (settings: MailSettings) => path.join(settings.runDir, 'postsrsd.secret');

/** postsrsd's command line: the SRS domain is the mail host's name; loopback only. */
export function postsrsdArgs(settings: MailSettings): string[] {
  return [
    `-s${srsSecretFile(settings)}`,
    `-d${settings.hostname ?? DEFAULT_HOSTNAME}`,
    `-l${INTERNAL_ADDRESS}`,
    `-f${settings.srsForwardPort}`,
    `-r${settings.srsReversePort}`,
    '-4',
  ];
}

const agentSettingsFile = (settings: MailSettings) => path.join(settings.runDir, 'mail-agent.json');

/** `databaseUrl` with another user and password: how the mail agent logs in as the daemons' role. */
function roleUrl(databaseUrl: string, role: string, password: string): string {
  const url = new URL(databaseUrl);
  url.username = role;
  url.password = password;
  return url.toString();
}

/** A daemon as a supervisor runs it: in the foreground, with what tells that it answers. */
export interface Program {
  name: string;
  command: string;
  args: string[];
  /** Whether it answers (listens, resolves). */
  ready: () => Promise<boolean>;
  /** How long a start may take before it counts as failed (ms); 20 s unless said. */
  startupMs?: number;
}

/**
 * The mail host's programs in the order they start: Dovecot (IMAP, LMTP, quota-status), postsrsd
 * (SRS), the mail agent (its policy service), rspamd (the signing milter), Postfix. Postfix's master runs in the foreground
 * after Postfix's own check (the work of `postfix start-fg`, without its shell in between, so that
 * a supervisor sees and restarts the master itself).
 */
export function mailPrograms(settings: MailSettings): Program[] {
  const where = dirs(settings);
  if (where.postfix.includes("'")) throw new Error(`a quote in the run directory: ${where.postfix}`);
  const up = (address: string, port: number) => () => listening(address, port);
  return [
    {
      name: 'dovecot',
      command: 'dovecot',
      args: ['-F', '-c', path.join(where.dovecot, 'dovecot.conf')],
      ready: async () =>
        (await up(settings.address, settings.imapPort)()) &&
        (await up(settings.address, settings.imapsPort)()) &&
        (await up(settings.address, settings.pop3sPort)()) &&
        (await listening(INTERNAL_ADDRESS, settings.lmtpPort)) &&
        listening(INTERNAL_ADDRESS, settings.quotaStatusPort),
    },
    {
      name: 'postsrsd',
      command: 'postsrsd',
      args: postsrsdArgs(settings),
      ready: async () =>
        (await listening(INTERNAL_ADDRESS, settings.srsForwardPort)) && listening(INTERNAL_ADDRESS, settings.srsReversePort),
    },
    {
      name: 'mail-agent',
      command: process.execPath,
      args: [AGENT, agentSettingsFile(settings)],
      ready: up(INTERNAL_ADDRESS, settings.policyPort),
    },
    {
      name: 'rspamd',
      command: '/bin/sh',
      // A main process killed outright leaves its workers holding the milter port: they are ended
      // first (their process group is the old main process's pid, which main.pid names: rspamd in
      // the foreground writes no pid file, so the shell writes its own pid, which exec keeps).
      // Its first start on a machine compiles its expressions (tens of seconds on a busy one); later
      // starts find them in the cache.
      startupMs: 120_000,
      args: [
        '-c',
        `old=$(cat '${path.join(rspamdDirs(settings).run, 'main.pid')}' 2>/dev/null); ` +
          `[ -n "$old" ] && pkill -KILL -g "$old" -x rspamd; ` +
          `echo $$ > '${path.join(rspamdDirs(settings).run, 'main.pid')}'; ` +
          `exec rspamd ${rspamdArgs(settings)
            .map((arg) => `'${arg}'`)
            .join(' ')}`,
      ],
      ready: () => answersAt(milterSocket(settings)),
    },
    {
      name: 'postfix',
      command: '/bin/sh',
      args: ['-c', `postfix -c '${where.postfix}' check && exec /usr/lib/postfix/sbin/master -c '${where.postfix}' -d`],
      ready: async () =>
        (await up(settings.address, settings.smtpPort)()) &&
        (await up(settings.address, settings.submissionPort)()) &&
        (await up(settings.address, settings.smtpsPort)()) &&
        listening(INTERNAL_ADDRESS, settings.replyPort),
    },
  ];
}

/** Whether something accepts TCP connections on address:port. */
export function listening(address: string, port: number): Promise<boolean> {
  return accepts({ host: address, port });
}

/** Whether something accepts connections on a Unix socket (a file left by a killed daemon does not). */
export function answersAt(socketPath: string): Promise<boolean> {
  return accepts({ path: socketPath });
}

function accepts(where: { host: string; port: number } | { path: string }): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(where);
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function startUntilListening(
  what: string,
  command: string,
  args: string[],
  logFile: string,
  ready: () => Promise<boolean>,
  options: { moreLogs?: string[]; startupMs?: number | undefined },
): Promise<ChildProcess> {
  const log = openSync(logFile, 'a');
  const child = spawn(command, args, { stdio: ['ignore', log, log] });
  const deadline = Date.now() + (options.startupMs ?? 20_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await ready()) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  const logs = [logFile, ...(options.moreLogs ?? [])].map((file) => (existsSync(file) ? readFileSync(file, 'utf8') : '')).join('\n');
  throw new Error(`${what} did not start: ${logs.slice(-3000)}`);
}

export interface RunningMail {
  /** Each program's process, by its name in mailPrograms. */
  processes: Map<string, ChildProcess>;
  stop(): Promise<void>;
}

/**
 * Starts the mail host's programs (mailPrograms) one after another as child processes, each once
 * the one before answers; resolves once all answer. The tests use this; `npm run services` runs
 * the same programs under supervisord (daemons/supervisor.ts).
 */
export async function startMail(settings: MailSettings): Promise<RunningMail> {
  const processes = new Map<string, ChildProcess>();
  const stopOne = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  const stop = async () => {
    await Promise.all([...processes.values()].map(stopOne));
  };
  try {
    for (const program of mailPrograms(settings)) {
      const child = await startUntilListening(
        program.name,
        program.command,
        program.args,
        path.join(settings.runDir, `${program.name}.log`),
        program.ready,
        {
          moreLogs:
            program.name === 'dovecot' ? [path.join(dirs(settings).dovecot, 'dovecot.log')] : [path.join(settings.runDir, 'postfix.log')],
          startupMs: program.startupMs,
        },
      );
      processes.set(program.name, child);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { processes, stop };
}
