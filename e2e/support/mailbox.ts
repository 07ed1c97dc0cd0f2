import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

/** One mail as the SMTP receiver got it, decoded enough for a test to read it. */
export interface ReceivedMail {
  /** Arrival order within this mailbox, from 1. */
  seq: number;
  /** The envelope recipients (RCPT TO), lower-cased: who the server really sent it to. */
  to: string[];
  /** The decoded Subject header. */
  subject: string;
  /** The decoded text/plain part ('' when there is none). */
  text: string;
  /** The decoded text/html part ('' when there is none). */
  html: string;
  /** The message as received (headers and MIME body), for debugging. */
  raw: string;
}

export interface WaitForMail {
  /** The recipient's address (compared case-insensitively with the envelope recipients). */
  to: string;
  subject?: RegExp;
  timeoutMs?: number;
}

interface Waiter {
  matches(mail: ReceivedMail): boolean;
  resolve(mail: ReceivedMail): void;
}

/* ---- a small MIME reader: what nodemailer writes (multipart, quoted-printable, base64) ---- */

interface MimePart {
  headers: Map<string, string>;
  body: string;
}

function splitPart(raw: string): MimePart {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  const head = end === -1 ? normalized : normalized.slice(0, end);
  const body = end === -1 ? '' : normalized.slice(end + 2);
  const headers = new Map<string, string>();
  // Folded header lines continue with whitespace.
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** A parameter of a structured header, e.g. `boundary` of Content-Type. */
function headerParameter(value: string, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, 'i').exec(value);
  return match?.[1] ?? match?.[2];
}

function decodeQuotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

function decodeBody(part: MimePart): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const charset = (headerParameter(part.headers.get('content-type') ?? '', 'charset') ?? 'utf-8').toLowerCase();
  const decoder = new TextDecoder(charset === 'us-ascii' ? 'utf-8' : charset);
  if (encoding === 'base64') return decoder.decode(Buffer.from(part.body.replace(/\s+/g, ''), 'base64'));
  if (encoding === 'quoted-printable') return decoder.decode(decodeQuotedPrintable(part.body));
  return part.body;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) in a header value. */
export function decodeHeader(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_all, charset: string, kind: string, data: string) => {
      const bytes = kind.toUpperCase() === 'B' ? Buffer.from(data, 'base64') : decodeQuotedPrintable(data.replace(/_/g, ' '));
      return new TextDecoder(charset.toLowerCase()).decode(bytes);
    });
}

/** The leaf parts of a message, depth first. */
function leafParts(part: MimePart): MimePart[] {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = headerParameter(type, 'boundary');
  if (!/^multipart\//i.test(type) || !boundary) return [part];
  const delimiter = `--${boundary}`;
  const sections = part.body.split('\n');
  const children: string[][] = [];
  let current: string[] | undefined;
  for (const line of sections) {
    if (line.trimEnd() === `${delimiter}--`) break;
    if (line.trimEnd() === delimiter) {
      current = [];
      children.push(current);
    } else {
      current?.push(line);
    }
  }
  return children.flatMap((lines) => leafParts(splitPart(lines.join('\n'))));
}

/** Reads recipient-independent parts of a raw message: subject, text and HTML. */
export function parseMail(raw: string): Pick<ReceivedMail, 'subject' | 'text' | 'html'> {
  const message = splitPart(raw);
  const leaves = leafParts(message);
  const ofType = (type: string) => leaves.find((leaf) => (leaf.headers.get('content-type') ?? 'text/plain').toLowerCase().startsWith(type));
  const text = ofType('text/plain');
  const html = ofType('text/html');
  return {
    subject: decodeHeader(message.headers.get('subject') ?? ''),
    text: text ? decodeBody(text) : '',
    html: html ? decodeBody(html) : '',
  };
}

/* ---- what tests take out of a mail ---- */

const LINK = /https?:\/\/[^\s<>"')\]]+/g;

/**
 * The first link of the mail's text whose path contains `path`, as a path with its query
 * (`/password/reset/abc/def`), to open against the test's own server.
 */
export function linkWithPath(mail: ReceivedMail, path: string): string {
  for (const href of mail.text.match(LINK) ?? []) {
    const url = new URL(href);
    if (url.pathname.includes(path)) return `${url.pathname}${url.search}${url.hash}`;
  }
  throw new Error(`no link with "${path}" in the mail "${mail.subject}" to ${mail.to.join(', ')}:\n${mail.text}`);
}

/** The first 6-digit number of the mail's text outside its links: the code it carries. */
export function sixDigitCode(mail: ReceivedMail): string {
  const code = /(?<![\d-])\d{6}(?![\d-])/.exec(mail.text.replace(LINK, ' '))?.[0];
  if (!code) throw new Error(`no 6-digit code in the mail "${mail.subject}" to ${mail.to.join(', ')}:\n${mail.text}`);
  return code;
}

/* ---- the receiver ---- */

/** A real SMTP server on 127.0.0.1 that keeps every mail it is given. */
export class Mailbox {
  private readonly mails: ReceivedMail[] = [];
  /** Mails already handed to a test by waitFor: each is handed out once. */
  private readonly taken = new Set<number>();
  private readonly waiters = new Set<Waiter>();

  private readonly smtp: SMTPServer;
  private listeningPort = 0;

  private constructor() {
    this.smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      banner: 'Berth e2e mailbox',
      size: 5 * 1024 * 1024,
      onData: (stream: SMTPServerDataStream, session: SMTPServerSession, callback: (err?: Error | null) => void) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', callback);
        stream.on('end', () => {
          const to = session.envelope.rcptTo.map((address) => address.address.toLowerCase());
          this.receive(Buffer.concat(chunks).toString('utf8'), to);
          callback();
        });
      },
    });
  }

  /** The port it listens on (127.0.0.1, chosen by the OS). */
  get port(): number {
    return this.listeningPort;
  }

  /** The SMTP_URL the Berth server sends through. */
  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<Mailbox> {
    const mailbox = new Mailbox();
    const { smtp } = mailbox;
    mailbox.listeningPort = await new Promise<number>((resolve, reject) => {
      smtp.once('error', reject);
      const server = smtp.listen(0, '127.0.0.1', () => {
        smtp.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
    // A client that goes away mid-session must not crash the worker.
    smtp.on('error', () => undefined);
    return mailbox;
  }

  private receive(raw: string, to: string[]): void {
    const mail: ReceivedMail = { seq: this.mails.length + 1, to, raw, ...parseMail(raw) };
    this.mails.push(mail);
    for (const waiter of this.waiters) {
      if (this.taken.has(mail.seq) || !waiter.matches(mail)) continue;
      this.taken.add(mail.seq);
      this.waiters.delete(waiter);
      waiter.resolve(mail);
    }
  }

  /** Every mail received so far, oldest first. */
  all(): readonly ReceivedMail[] {
    return this.mails;
  }

  /**
   * The oldest mail to `to` (and with a matching subject) that no earlier waitFor returned;
   * waits for it to arrive, at most `timeoutMs` (default 15 s).
   */
  waitFor({ to, subject, timeoutMs = 15_000 }: WaitForMail): Promise<ReceivedMail> {
    const recipient = to.toLowerCase();
    const matches = (mail: ReceivedMail) => mail.to.includes(recipient) && (!subject || subject.test(mail.subject));
    const ready = this.mails.find((mail) => !this.taken.has(mail.seq) && matches(mail));
    if (ready) {
      this.taken.add(ready.seq);
      return Promise.resolve(ready);
    }
    return new Promise<ReceivedMail>((resolve, reject) => {
      const waiter: Waiter = {
        matches,
        resolve: (mail) => {
          clearTimeout(timer);
          resolve(mail);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        const seen = this.mails.map((mail) => `  #${mail.seq} to ${mail.to.join(', ')}: ${mail.subject}`).join('\n');
        reject(
          new Error(
            `no mail to ${to}${subject ? ` with a subject matching ${String(subject)}` : ''} within ${timeoutMs} ms; received:\n${seen || '  (nothing)'}`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.smtp.close(() => {
        resolve();
      });
    });
  }
}
