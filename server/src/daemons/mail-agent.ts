import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { ChannelListener } from '../db/listener.ts';
import { syncMailCertificates, type MailTlsSettings } from './mail-certificates.ts';
import { syncDkimKeys, type MailDkimSettings } from './mail-dkim.ts';
import { followFile, MailLogBook } from './mail-log.ts';

/**
 * The mail host's own agent, beside Postfix and Dovecot (started with them by `npm run services`):
 *
 * - When the panel deletes a mailbox (channel `berth_mail`, migration 0022_mail_owner_safety) it
 *   ends the mailbox's IMAP sessions and removes its files at once; on start, after a lost
 *   connection and every few minutes it removes the files of every mailbox that no longer exists
 *   (`mail.homes`), so nothing of an old owner waits for the next owner of the address.
 * - When a mailbox is disabled, renamed or given a new password, its open IMAP sessions end
 *   (`doveadm kick`): the old password must not keep a session alive.
 * - When the database comes back after an outage, it reloads Dovecot and Postfix: their lookup
 *   processes would otherwise wait out their own reconnect backoff (a minute and more, Postfix's
 *   pgsql client marks a host dead for 60 s) and keep answering "temporary failure" although the
 *   database answers again. A reload starts fresh processes; open IMAP sessions and SMTP
 *   transactions finish undisturbed.
 * - It writes each served domain's certificate for Dovecot's `local_name` and Postfix's SNI table
 *   (daemons/mail-certificates.ts) on start and whenever one changes (`certificates` on the same
 *   channel), and reloads both.
 * - It writes each served domain's DKIM signing key for rspamd (daemons/mail-dkim.ts) on start and
 *   whenever one is made or removed (`dkim` on the same channel).
 * - It counts each message a mailbox sends through submission against its hourly limit and its
 *   domain's at the end of its DATA, and each message from outside that a forwarder passes on
 *   against the forwarder's domain, and defers what goes over (countSend, countForward).
 * - It follows Postfix's log and records each delivery of mail a mailbox received or sent in the
 *   mailbox's mail log (daemons/mail-log.ts, migration 0043_mail_log).
 * - It answers Postfix's end-of-data policy request (deploy/postfix/main.cf): a message whose real
 *   size no longer fits a recipient's quota is refused while the sender is still connected, for
 *   every recipient of the message, by asking Dovecot's quota-status for each with that size;
 *   Postfix never accepts mail it would bounce later to a possibly forged sender.
 */
export interface MailAgentSettings {
  /** The mail role's connection (it reads the schema `mail` and LISTENs). */
  databaseUrl: string;
  /** Where the mailboxes' homes are (one folder per mailbox id). */
  mailDir: string;
  /** Dovecot's configuration, for doveadm. */
  dovecotConfig: string;
  /** Postfix's configuration directory, for `postfix reload`. */
  postfixConfig: string;
  /** Where Postfix asks the end-of-data policy (loopback). */
  policyAddress: string;
  policyPort: number;
  /** Dovecot's quota-status service (loopback). */
  quotaStatusPort: number;
  /** How often orphaned homes are looked for besides the events (ms). */
  sweepEveryMs?: number;
  /** Each domain's certificate for Dovecot and Postfix (daemons/mail-certificates.ts). */
  tls?: MailTlsSettings;
  /** Each domain's DKIM signing key for rspamd (daemons/mail-dkim.ts). */
  dkim?: MailDkimSettings;
  /** Postfix's log, read as it is written into each mailbox's mail log (daemons/mail-log.ts). */
  postfixLog?: string;
}

const run = promisify(execFile);
const HOME = /^\d+$/;
const ADDRESS = /^[^\s@'"\\;]+@[a-z0-9.-]+$/;

export interface RunningMailAgent {
  /** Removes the homes of mailboxes that no longer exist; answers how many. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

export async function startMailAgent(settings: MailAgentSettings): Promise<RunningMailAgent> {
  const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: 2, connectionTimeoutMillis: 5_000 });
  pool.on('error', () => undefined);
  const log = (line: string) => process.stdout.write(`${new Date().toISOString()} mail-agent ${line}\n`);

  const kick = async (address: string) => {
    if (!ADDRESS.test(address)) return;
    try {
      await run('doveadm', ['-c', settings.dovecotConfig, 'kick', address]);
      log(`kicked ${address}`);
    } catch (error) {
      // "no users kicked" is an exit code too: nothing was open.
      if ((error as { code?: number }).code !== 68) log(`kick ${address} failed: ${(error as Error).message}`);
    }
  };
  const removeHome = (id: string) => {
    if (!HOME.test(id)) return;
    rmSync(path.join(settings.mailDir, id), { recursive: true, force: true });
  };

  const sweep = async (): Promise<number> => {
    // Folders first, then the mailboxes: a mailbox made meanwhile is in the answer, so its new folder stays.
    let folders: string[];
    try {
      folders = readdirSync(settings.mailDir).filter((name) => HOME.test(name));
    } catch {
      return 0;
    }
    if (folders.length === 0) return 0;
    const { rows } = await pool.query<{ home_id: number }>('select home_id from mail.homes');
    const alive = new Set(rows.map((row) => String(row.home_id)));
    const orphans = folders.filter((id) => !alive.has(id));
    for (const id of orphans) removeHome(id);
    if (orphans.length) log(`removed ${orphans.length} home(s) of deleted mailboxes`);
    return orphans.length;
  };
  const sweepQuietly = () => sweep().catch((error: Error) => log(`sweep failed: ${error.message}`));

  let lost = false;
  let outage: NodeJS.Timeout | undefined;
  /** Fresh processes for Dovecot and Postfix: open IMAP sessions and SMTP transactions go on. */
  const reloadBoth = async (why: string) => {
    for (const [command, args] of [
      ['doveadm', ['-c', settings.dovecotConfig, 'reload']],
      ['postfix', ['-c', settings.postfixConfig, 'reload']],
    ] as const) {
      await run(command, [...args]).catch((error: Error) => log(`${command} reload failed: ${error.message}`));
    }
    log(`${why}: Dovecot and Postfix reloaded`);
  };
  const reloadDaemons = async () => {
    lost = false;
    clearInterval(outage);
    await reloadBoth('database back');
  };
  const reloadForCertificates = async () => {
    if (settings.tls && (await syncMailCertificates(pool, settings.tls))) await reloadBoth('certificates written');
  };
  const syncCertificates = oneAtATime('certificates', reloadForCertificates, log);
  // rspamd watches its selector map: new keys need no reload.
  const syncDkim = oneAtATime(
    'DKIM keys',
    async () => {
      if (settings.dkim && (await syncDkimKeys(pool, settings.dkim))) log('DKIM keys written');
    },
    log,
  );
  const listener = new ChannelListener({
    databaseUrl: settings.databaseUrl,
    channel: 'berth_mail',
    onNotification: (payload) => {
      const [kind, ...rest] = payload.split(':');
      if (kind === 'certificates') void syncCertificates.run();
      else if (kind === 'dkim') void syncDkim.run();
      else if (kind === 'gone') {
        const [id = '', address = ''] = [rest[0], rest.slice(1).join(':')];
        void kick(address).then(() => removeHome(id));
      } else if (kind === 'kick') void kick(rest.join(':'));
    },
    // Events sent while the connection was down are gone: the sweep catches up on deletions.
    onStateChange: (listening) => {
      if (listening && lost) void reloadDaemons();
      if (!listening && !lost) {
        lost = true;
        // While it is away, Dovecot's SQL pool waits longer after each failed connect (30 s and
        // more), and logins wait with it: a reload every few seconds keeps its waits short, so a
        // login is refused within seconds ("temporary failure") instead of hanging.
        outage = setInterval(() => void run('doveadm', ['-c', settings.dovecotConfig, 'reload']).catch(() => undefined), 3_000);
        outage.unref();
      }
      if (listening) {
        void sweepQuietly();
        void syncCertificates.run();
        void syncDkim.run();
      }
    },
    retryDelaysMs: [250, 500, 1_000],
    onError: (error) => log(`database: ${error.message}`),
  });
  await listener.start();
  // rspamd starts once this agent listens (daemons/mail.ts): with the keys written first (one
  // attempt; a failed one is retried with backoff), it signs from its first message on rather
  // than after its next look at the selector map.
  await syncDkim.run();
  const timer = setInterval(
    () => {
      void sweepQuietly();
      void syncCertificates.run();
      void syncDkim.run();
    },
    settings.sweepEveryMs ?? 5 * 60_000,
  );
  timer.unref();

  const policy = await startEndOfDataPolicy(settings, pool);
  const book = new MailLogBook();
  // Where the mail log was read to, kept beside Postfix's log: what Postfix logged while the agent
  // was down is read when it is back.
  const following = settings.postfixLog
    ? followFile(
        settings.postfixLog,
        async (lines) => {
          const entries = lines.flatMap((line) => book.read(line));
          try {
            for (const entry of entries)
              await pool.query('select mail.log_delivery($1, $2, $3, $4, $5, $6, now())', [
                entry.login,
                entry.direction,
                entry.queue,
                entry.peer,
                entry.status,
                entry.detail,
              ]);
          } catch (error) {
            log(`mail log: ${(error as Error).message}; read again shortly`);
            throw error;
          }
        },
        { stateFile: `${settings.postfixLog}.berth-offset` },
      )
    : undefined;
  return {
    sweep,
    stop: async () => {
      clearInterval(timer);
      clearInterval(outage);
      following?.stop();
      syncCertificates.stop();
      syncDkim.stop();
      await listener.close();
      await new Promise<void>((resolve) => policy.close(() => resolve()));
      await pool.end();
    },
  };
}

/**
 * `work` one run at a time: a call during a run asks for one more after it (a change it may have
 * missed), and a failed run (the database busy or away) is tried again soon with backoff, not at
 * the next sweep.
 */
function oneAtATime(what: string, work: () => Promise<void>, log: (line: string) => void) {
  let running: Promise<void> | undefined;
  let again = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await work();
          failures = 0;
        } catch (error) {
          log(`${what}: ${(error as Error).message}`);
          const wait = Math.min(30_000, 1_000 * 2 ** failures);
          failures += 1;
          clearTimeout(retry);
          retry = setTimeout(() => void run(), wait);
          retry.unref();
        }
      } while (again);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };
  return { run, stop: () => clearTimeout(retry) };
}

/** One Postfix policy request (attribute=value lines, ended by an empty line). */
type PolicyRequest = Map<string, string>;

/** Asks Dovecot's quota-status whether `size` bytes still fit `recipient`'s quota: its action line. */
function quotaStatus(port: number, recipient: string, size: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    socket.setTimeout(5_000);
    socket.on('connect', () => socket.write(`request=smtpd_access_policy\nprotocol_state=RCPT\nrecipient=${recipient}\nsize=${size}\n\n`));
    socket.on('data', (chunk) => {
      answer += chunk.toString('utf8');
      if (answer.includes('\n\n')) socket.end();
    });
    const done = () => resolve(/^action=(.*)$/m.exec(answer)?.[1] ?? 'DUNNO');
    socket.on('close', done);
    socket.on('timeout', () => socket.destroy());
    socket.on('error', () => resolve('DUNNO'));
  });
}

/**
 * One message a mailbox sends, counted against its owner's plan's hourly limit (migration
 * 0040_mail_send_limits): past it the message is deferred (the client keeps it and tries again
 * later), and the server tells the owner (modules/mail-limits). Without the database nothing is
 * sent uncounted: a temporary failure.
 */
async function countSend(pool: pg.Pool, login: string): Promise<string> {
  return deferPast(pool, 'select mail.count_send($1) as over', [login], 'Sending');
}

/** Runs a counting function (0 or null: within the limit, else the limit gone over): Postfix's action. */
async function deferPast(pool: pg.Pool, query: string, values: unknown[], what: string): Promise<string> {
  try {
    const { rows } = await pool.query<{ over: number | null }>(query, values);
    const limit = rows[0]?.over ?? 0;
    return limit > 0 ? `450 4.7.1 ${what} limit of ${limit} messages an hour reached: try again later` : 'DUNNO';
  } catch {
    return '451 4.3.0 Temporary failure: try again later';
  }
}

/**
 * A message from outside, counted once for each of its recipients that is a forwarder leading
 * outside Berth, against the forwarder's domain's hourly limit (migration 0044_mail_domain_limits):
 * past it the message is deferred and the sending server tries again later.
 */
async function countForward(pool: pg.Pool, recipients: string[]): Promise<string> {
  if (recipients.length === 0) return 'DUNNO';
  return deferPast(pool, 'select mail.count_forward($1) as over', [recipients], 'Forwarding');
}

/**
 * Postfix's policy protocol on loopback: at RCPT it remembers each recipient of a message (by its
 * `instance`), at END-OF-MESSAGE it knows the real size and asks Dovecot for each recipient.
 */
function startEndOfDataPolicy(settings: MailAgentSettings, pool: pg.Pool): Promise<Server> {
  const recipients = new Map<string, { list: string[]; at: number }>();
  const answer = async (request: PolicyRequest): Promise<string> => {
    const instance = request.get('instance') ?? '';
    const state = request.get('protocol_state');
    if (state === 'RCPT') {
      const entry = recipients.get(instance) ?? { list: [], at: Date.now() };
      const recipient = request.get('recipient');
      if (recipient && entry.list.length < 1000) entry.list.push(recipient);
      recipients.set(instance, entry);
      // A connection that never reaches the end of its message leaves no entry behind for long.
      for (const [key, value] of recipients) if (Date.now() - value.at > 30 * 60_000) recipients.delete(key);
      return 'DUNNO';
    }
    if (state === 'END-OF-MESSAGE') {
      // Submission (a mailbox logged in): counted against its hourly limit, nothing else to ask.
      const login = request.get('sasl_username');
      if (login) return countSend(pool, login);
      const list = recipients.get(instance)?.list ?? [];
      recipients.delete(instance);
      const size = request.get('size') ?? '0';
      for (const recipient of list) {
        const action = await quotaStatus(settings.quotaStatusPort, recipient, size);
        if (/^5\d\d /.test(action)) return action;
      }
      // Mail from outside that a forwarder passes on counts against the forwarder's domain.
      return countForward(pool, list);
    }
    return 'DUNNO';
  };
  const server = createServer((socket: Socket) => {
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const request: PolicyRequest = new Map();
        for (const line of block.split('\n')) {
          const at = line.indexOf('=');
          if (at > 0) request.set(line.slice(0, at), line.slice(at + 1));
        }
        void answer(request).then((action) => socket.write(`action=${action}\n\n`));
      }
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.policyPort, settings.policyAddress, () => resolve(server));
  });
}

// `node server/src/daemons/mail-agent.ts <settings.json>`: run by the supervisor of `npm run services`.
if (import.meta.main) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: mail-agent.ts <settings.json>\n');
    process.exit(2);
  }
  const agent = await startMailAgent(JSON.parse(readFileSync(file, 'utf8')) as MailAgentSettings);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void agent.stop().then(() => process.exit(0)));
}
