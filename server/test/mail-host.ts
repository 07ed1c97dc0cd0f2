import { mkdtempSync } from 'node:fs';
import { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MailSettings } from '../src/daemons/mail.ts';
import { freePort } from './faults/processes.ts';

/** A mail host of a test's own: every port a free one on loopback, its files in a new temporary directory. */
export async function mailHostSettings(databaseUrl: string, options: { relayPort?: number; prefix?: string } = {}): Promise<MailSettings> {
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
    ...(options.relayPort ? { relayHost: `[127.0.0.1]:${options.relayPort}` } : {}),
    runDir: mkdtempSync(path.join(tmpdir(), options.prefix ?? 'berth-mail-')),
  };
}

/** Sends one message to the mail host's SMTP port (no SIZE unless given); answers the SMTP error's code when it is refused. */
export async function sendTo(
  settings: MailSettings,
  to: string,
  subject: string,
  options: { size?: number; text?: string; from?: string } = {},
): Promise<number | 'sent'> {
  const from = options.from ?? 'sender@elsewhere.test';
  const transport = nodemailer.createTransport({
    host: settings.address,
    port: settings.smtpPort,
    secure: false,
    ignoreTLS: true,
    name: 'client.test',
  });
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
