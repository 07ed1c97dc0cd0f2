import { closeSync, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';

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

/** Where a follower had read to in which file (its inode): kept beside the log by the mail agent. */
interface FollowState {
  inode: number;
  offset: number;
}

function readState(file: string | undefined): FollowState | undefined {
  if (!file) return undefined;
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as Partial<FollowState>;
    return Number.isSafeInteger(state.inode) && Number.isSafeInteger(state.offset) && state.offset! >= 0
      ? { inode: state.inode!, offset: state.offset! }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Follows a log file: each batch of new complete lines goes to `onLines`, and only once it has
 * resolved is the batch counted as read (a failed write, a database away, reads it again on the
 * next poll: `onLines` must take a line twice). With a `stateFile` it goes on after a restart where
 * it stopped, so nothing written while the follower was down is missed; without one, or the first
 * time, it starts at the file's end. A file that shrank or was replaced (rotated) is read from its start.
 */
export function followFile(
  file: string,
  onLines: (lines: string[]) => Promise<void>,
  options: { everyMs?: number; stateFile?: string } = {},
): { stop: () => void; poll: () => Promise<void> } {
  const stat = () => {
    try {
      return statSync(file);
    } catch {
      return undefined;
    }
  };
  const first = stat();
  const kept = readState(options.stateFile);
  let inode = first?.ino ?? 0;
  let offset = !first ? 0 : kept && kept.inode === first.ino && kept.offset <= first.size ? kept.offset : kept ? 0 : first.size;
  // Where it starts is kept at once: a restart before the first new line goes on from here too.
  const keep = () => {
    if (options.stateFile) writeFileSync(options.stateFile, JSON.stringify({ inode, offset }));
  };
  if (first && !(kept && kept.inode === first.ino && kept.offset === offset)) {
    try {
      keep();
    } catch {
      // Kept after the next batch instead.
    }
  }
  let running = false;
  const poll = async () => {
    if (running) return;
    running = true;
    try {
      const now = stat();
      if (!now) return;
      if (now.ino !== inode || now.size < offset) {
        inode = now.ino;
        offset = 0;
      }
      if (now.size === offset) return;
      const fd = openSync(file, 'r');
      let text: string;
      try {
        const buffer = Buffer.alloc(Math.min(now.size - offset, 4 * 1024 * 1024));
        text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, offset)).toString('utf8');
      } finally {
        closeSync(fd);
      }
      // Complete lines only: a line still being written is read whole next time.
      const end = text.lastIndexOf('\n');
      if (end < 0) return;
      await onLines(text.slice(0, end).split('\n'));
      offset += Buffer.byteLength(text.slice(0, end + 1));
      keep();
    } catch {
      // Read again next time.
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void poll(), options.everyMs ?? 500);
  timer.unref();
  return { stop: () => clearInterval(timer), poll };
}
