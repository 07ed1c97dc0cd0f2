import { closeSync, openSync, readSync, statSync } from 'node:fs';

/**
 * Each mailbox's mail log (migration 0043_mail_log) from Postfix's own log, read by the mail agent
 * as it is written: who logged in to send a queued message (submission's `sasl_username`), its
 * envelope sender, and each delivery attempt to each recipient (`status=sent|deferred|bounced`).
 * A delivery over LMTP is mail a mailbox received; one of a message sent after a login is mail
 * that mailbox sent (to the outside or to another mailbox here).
 */

export type PostfixEvent =
  | { kind: 'login'; queue: string; login: string }
  | { kind: 'from'; queue: string; sender: string }
  | { kind: 'delivery'; queue: string; transport: string; recipient: string; status: MailLogStatus; detail: string }
  | { kind: 'removed'; queue: string };
export type MailLogStatus = 'delivered' | 'deferred' | 'bounced';

export interface MailLogRecord {
  login: string;
  direction: 'in' | 'out';
  queue: string;
  peer: string;
  status: MailLogStatus;
  detail: string;
}

const LINE = /postfix\/([a-z0-9/_-]+)\[\d+\]: ([0-9A-F]{6,}|[0-9B-DF-HJ-NP-TV-Zb-df-hj-np-tv-z]{10,}): (.*)$/;
const STATUS: Record<string, MailLogStatus> = { sent: 'delivered', deferred: 'deferred', bounced: 'bounced' };

/** One line of Postfix's log as what it says of a queued message; undefined for anything else. */
export function parsePostfixLine(line: string): PostfixEvent | undefined {
  const match = LINE.exec(line);
  if (!match) return undefined;
  const [, program = '', queue = '', text = ''] = match;
  const login = /(?:^|, )sasl_username=([^,\s]+)/.exec(text);
  if (program.endsWith('smtpd') && login?.[1]) return { kind: 'login', queue, login: login[1] };
  if (program === 'qmgr') {
    if (text === 'removed') return { kind: 'removed', queue };
    const from = /^from=<([^>]*)>/.exec(text);
    if (from) return { kind: 'from', queue, sender: unwrapSrs(from[1] ?? '') };
    return undefined;
  }
  const delivery = /^to=<([^>]+)>,.* status=(sent|deferred|bounced) \((.*)\)$/.exec(text);
  if (!delivery) return undefined;
  const [, recipient = '', status = '', detail = ''] = delivery;
  const transport = program.split('/').pop() ?? program;
  return { kind: 'delivery', queue, transport, recipient, status: STATUS[status]!, detail: status === 'sent' ? '' : detail };
}

/** The original sender of an SRS-rewritten one (SRS0=hash=time=domain=local@host), as the mailbox owner knows it. */
export function unwrapSrs(sender: string): string {
  const srs = /^SRS0[=+-][^=]+=[^=]+=([^=]+)=(.+)@[^@]+$/i.exec(sender);
  return srs ? `${srs[2]}@${srs[1]}` : sender;
}

/** The mail log entries of one event, given what is known of its message (login, sender). */
export class MailLogBook {
  private readonly messages = new Map<string, { login?: string; sender?: string }>();

  /** What the line adds to the mailboxes' logs. */
  read(line: string): MailLogRecord[] {
    const event = parsePostfixLine(line);
    if (!event) return [];
    const known = this.messages.get(event.queue) ?? {};
    if (event.kind === 'login') this.remember(event.queue, { ...known, login: event.login });
    else if (event.kind === 'from') this.remember(event.queue, { ...known, sender: event.sender });
    else if (event.kind === 'removed') this.messages.delete(event.queue);
    if (event.kind !== 'delivery') return [];
    const records: MailLogRecord[] = [];
    const common = { queue: event.queue, status: event.status, detail: event.detail };
    if (event.transport === 'lmtp') {
      records.push({ login: event.recipient, direction: 'in', peer: known.sender || '<>', ...common });
    }
    if (known.login) records.push({ login: known.login, direction: 'out', peer: event.recipient, ...common });
    return records;
  }

  /** Messages still queued are kept; a queue that never says `removed` (a crash) cannot grow without bound. */
  private remember(queue: string, what: { login?: string; sender?: string }) {
    if (this.messages.size >= 50_000) {
      const oldest = this.messages.keys().next().value;
      if (oldest !== undefined) this.messages.delete(oldest);
    }
    this.messages.set(queue, what);
  }
}

/**
 * Follows a log file from its current end: each new complete line goes to `onLine`. A file that
 * shrank (rotated, truncated) is read again from its start.
 */
export function followFile(file: string, onLine: (line: string) => void, everyMs = 500): { stop: () => void } {
  let offset = (() => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  })();
  let partial = '';
  const poll = () => {
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      return;
    }
    if (size < offset) {
      offset = 0;
      partial = '';
    }
    if (size === offset) return;
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(size - offset, 4 * 1024 * 1024));
      const read = readSync(fd, buffer, 0, buffer.length, offset);
      offset += read;
      const lines = (partial + buffer.subarray(0, read).toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    } finally {
      closeSync(fd);
    }
  };
  const timer = setInterval(poll, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
