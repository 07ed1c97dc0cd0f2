import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect as connectTcp, type Socket } from 'node:net';
import { checkServerIdentity, connect as connectTls } from 'node:tls';
import type { MailSettings } from '../src/daemons/mail.ts';
import { freePort } from './faults/processes.ts';
import { startDnsWorld, type DnsWorld } from './dns-world.ts';

/**
 * What rspamd asks when a test gives it no name server of its own: a loopback server that knows no
 * name (NXDOMAIN), so no question of its (blocklists, its maps' hosts) leaves the machine.
 */
let nowhere: Promise<DnsWorld> | undefined;

/** Compiled expressions of rspamd, shared by the mail hosts of all tests (a start without them takes seconds). */
const RSPAMD_CACHE = path.join(tmpdir(), 'berth-rspamd-cache');

/** A mail host of a test's own: every port a free one on loopback, its files in a new temporary directory. */
export async function mailHostSettings(
  databaseUrl: string,
  options: { relayPort?: number; prefix?: string; rspamdDns?: string } = {},
): Promise<MailSettings> {
  nowhere ??= startDnsWorld({ unref: true });
  return {
    databaseUrl,
    address: '127.0.0.1',
    smtpPort: await freePort(),
    imapPort: await freePort(),
    submissionPort: await freePort(),
    smtpsPort: await freePort(),
    imapsPort: await freePort(),
    pop3Port: await freePort(),
    pop3sPort: await freePort(),
    lmtpPort: await freePort(),
    quotaStatusPort: await freePort(),
    replyPort: await freePort(),
    policyPort: await freePort(),
    srsForwardPort: await freePort(),
    srsReversePort: await freePort(),
    rspamdDns: options.rspamdDns ?? (await nowhere).address,
    rspamdCacheDir: RSPAMD_CACHE,
    // The machine's Redis (as .ci/run starts it): rspamd's Bayes classifier learns there.
    rspamdRedis: '127.0.0.1:6379',
    rspamdTestPatterns: true,
    ...(options.relayPort ? { relayHost: `[127.0.0.1]:${options.relayPort}` } : {}),
    runDir: mkdtempSync(path.join(tmpdir(), options.prefix ?? 'berth-mail-')),
  };
}

/**
 * The last lines of the mail host's logs (Postfix, Dovecot, the mail agent, rspamd): the message of an
 * assertion that a daemon answered, so that a failure in CI says what the daemons saw.
 */
export function mailLogTail(settings: MailSettings, lines = 12): string {
  return ['postfix.log', 'dovecot.log', 'mail-agent.log', 'rspamd.log', 'rspamd/log/rspamd.log']
    .map((name) => path.join(settings.runDir, name))
    .filter((file) => existsSync(file))
    .map((file) => `${path.basename(file)}:\n${readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')}`)
    .join('\n');
}

/** A client of the mail host's SMTP port (port 25: no TLS, no login), as another mail server is. */
export const smtpClientOf = (settings: MailSettings) =>
  nodemailer.createTransport({
    host: settings.address,
    port: settings.smtpPort,
    secure: false,
    ignoreTLS: true,
    name: 'client.test',
  });

/** Sends one message to the mail host's SMTP port (no SIZE unless given); answers the SMTP error's code when it is refused. */
export async function sendTo(
  settings: MailSettings,
  to: string,
  subject: string,
  options: { size?: number; text?: string; from?: string } = {},
): Promise<number | 'sent'> {
  const from = options.from ?? 'sender@elsewhere.test';
  const transport = smtpClientOf(settings);
  try {
    await transport.sendMail({
      from,
      to,
      subject,
      text: options.text ?? `Hello ${to}`,
      envelope: { from, to: [to], ...(options.size ? { size: options.size } : {}) },
    });
    return 'sent';
  } catch (error) {
    return (error as { responseCode?: number }).responseCode ?? -1;
  }
}

/** A signed-in IMAP client of the mail host (plain IMAP on loopback). */
export async function imapOf(settings: MailSettings, user: string, pass: string): Promise<ImapFlow> {
  const client = new ImapFlow({
    host: settings.address,
    port: settings.imapPort,
    secure: false,
    doSTARTTLS: false,
    auth: { user, pass },
    logger: false,
  });
  await client.connect();
  return client;
}

/**
 * The certificate a TLS port of the mail host presents, straight away or after SMTP's STARTTLS
 * (`starttls`), when the client names `sni` (or nothing): its serial, and whether it is valid for
 * `host` (default: the name asked for) against `ca` alone (false without one).
 */
export async function presentedCertificate(
  port: number,
  options: { sni?: string | undefined; starttls?: boolean; ca?: string; host?: string } = {},
): Promise<{ serial: string; authorized: boolean }> {
  let plain: Socket | undefined;
  if (options.starttls) {
    plain = connectTcp({ host: '127.0.0.1', port });
    const socket = plain;
    const reply = (line: string | null) =>
      new Promise<void>((resolve, reject) => {
        let text = '';
        const onData = (chunk: Buffer) => {
          text += chunk.toString('utf8');
          if (/(^|\n)\d{3} [^\n]*\n$/.test(text)) {
            socket.off('data', onData);
            resolve();
          }
        };
        socket.on('data', onData);
        socket.once('error', reject);
        if (line !== null) socket.write(`${line}\r\n`);
      });
    await reply(null);
    await reply('EHLO laptop.test');
    await reply('STARTTLS');
  }
  return new Promise((resolve, reject) => {
    const socket = connectTls(
      {
        ...(plain ? { socket: plain } : { host: '127.0.0.1', port }),
        ...(options.sni ? { servername: options.sni } : {}),
        ...(options.ca ? { ca: options.ca } : {}),
        rejectUnauthorized: false,
        checkServerIdentity: () => undefined,
      },
      () => {
        const peer = socket.getPeerCertificate(true);
        const host = options.host ?? options.sni ?? '';
        const authorized = Boolean(options.ca) && socket.authorized && checkServerIdentity(host, peer) === undefined;
        socket.destroy();
        resolve({ serial: peer.serialNumber, authorized });
      },
    );
    socket.once('error', reject);
  });
}
