import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { followFile, MailLogBook, parsePostfixLine, unwrapSrs } from './mail-log.ts';

// Lines as Postfix 3.7 (Debian) writes them to its maillog_file.
const at = 'Nov 30 03:16:14 mail';

describe("Postfix's log into mail log entries", () => {
  it('reads logins, senders, deliveries and removals; ignores the rest', () => {
    expect(
      parsePostfixLine(
        `${at} postfix/submission/smtpd[18914]: 4E96820C5AF: client=localhost[127.0.0.1], sasl_method=PLAIN, sasl_username=info@send.example`,
      ),
    ).toEqual({ kind: 'login', queue: '4E96820C5AF', login: 'info@send.example' });
    expect(parsePostfixLine(`${at} postfix/qmgr[18912]: 4E96820C5AF: from=<info@send.example>, size=710, nrcpt=1 (queue active)`)).toEqual({
      kind: 'from',
      queue: '4E96820C5AF',
      sender: 'info@send.example',
    });
    expect(
      parsePostfixLine(
        `${at} postfix/smtp[18935]: 4E96820C5AF: to=<defer-x@outside.test>, relay=127.0.0.1[127.0.0.1]:40000, delay=0.2, delays=0.1/0/0/0.1, dsn=4.0.0, status=deferred (host 127.0.0.1[127.0.0.1] said: 450 Mailbox busy, try later (in reply to RCPT TO command))`,
      ),
    ).toEqual({
      kind: 'delivery',
      queue: '4E96820C5AF',
      transport: 'smtp',
      recipient: 'defer-x@outside.test',
      status: 'deferred',
      detail: 'host 127.0.0.1[127.0.0.1] said: 450 Mailbox busy, try later (in reply to RCPT TO command)',
    });
    expect(parsePostfixLine(`${at} postfix/qmgr[18912]: 4E96820C5AF: removed`)).toEqual({ kind: 'removed', queue: '4E96820C5AF' });
    for (const other of [
      `${at} postfix/smtpd[18914]: connect from localhost[127.0.0.1]`,
      `${at} postfix/cleanup[18926]: 4E96820C5AF: message-id=<x@y>`,
      `${at} postfix/smtpd[18914]: 4E96820C5AF: client=localhost[127.0.0.1]`,
      'garbage',
    ]) {
      expect(parsePostfixLine(other), other).toBeUndefined();
    }
  });

  it('shows the original sender of an SRS-rewritten one', () => {
    expect(unwrapSrs('SRS0=XLaO=JT=elsewhere.test=sender@mail.berth.localhost')).toBe('sender@elsewhere.test');
    expect(unwrapSrs('someone@example.org')).toBe('someone@example.org');
  });

  it("makes a received entry of an LMTP delivery and a sent one of a logged-in sender's message", () => {
    const book = new MailLogBook();
    expect(book.read(`${at} postfix/smtpd[1]: AAA111: client=mx.example[192.0.2.1]`)).toEqual([]);
    book.read(
      `${at} postfix/qmgr[2]: AAA111: from=<SRS0=XLaO=JT=elsewhere.test=sender@mail.berth.localhost>, size=1, nrcpt=1 (queue active)`,
    );
    expect(
      book.read(
        `${at} postfix/lmtp[3]: AAA111: to=<info@send.example>, relay=127.0.0.1[127.0.0.1]:2424, dsn=2.0.0, status=sent (250 2.0.0 Saved)`,
      ),
    ).toEqual([
      { login: 'info@send.example', direction: 'in', queue: 'AAA111', peer: 'sender@elsewhere.test', status: 'delivered', detail: '' },
    ]);

    book.read(`${at} postfix/submission/smtpd[4]: BBB222: client=laptop[192.0.2.9], sasl_method=PLAIN, sasl_username=info@send.example`);
    book.read(`${at} postfix/qmgr[2]: BBB222: from=<info@send.example>, size=1, nrcpt=2 (queue active)`);
    expect(
      book.read(
        `${at} postfix/lmtp[3]: BBB222: to=<other@send.example>, relay=127.0.0.1[127.0.0.1]:2424, dsn=2.0.0, status=sent (250 2.0.0 Saved)`,
      ),
    ).toEqual([
      { login: 'other@send.example', direction: 'in', queue: 'BBB222', peer: 'info@send.example', status: 'delivered', detail: '' },
      { login: 'info@send.example', direction: 'out', queue: 'BBB222', peer: 'other@send.example', status: 'delivered', detail: '' },
    ]);
    expect(
      book.read(
        `${at} postfix/smtp[5]: BBB222: to=<bounce-x@outside.test>, relay=none, dsn=5.0.0, status=bounced (host said: 550 No such user here)`,
      ),
    ).toEqual([
      {
        login: 'info@send.example',
        direction: 'out',
        queue: 'BBB222',
        peer: 'bounce-x@outside.test',
        status: 'bounced',
        detail: 'host said: 550 No such user here',
      },
    ]);
    book.read(`${at} postfix/qmgr[2]: BBB222: removed`);
    // Once removed, the queue id may come again for another message: nothing of the old one is kept.
    expect(book.read(`${at} postfix/smtp[5]: BBB222: to=<x@outside.test>, relay=none, dsn=2.0.0, status=sent (250 ok)`)).toEqual([]);
  });
});

describe("following Postfix's log", () => {
  const setup = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'berth-follow-'));
    return { dir, log: path.join(dir, 'postfix.log'), state: path.join(dir, 'postfix.log.berth-offset') };
  };
  const collect = () => {
    const seen: string[] = [];
    return { seen, onLines: async (lines: string[]) => void seen.push(...lines) };
  };

  it('starts at the end the first time, and reads complete lines only', async () => {
    const { dir, log, state } = setup();
    try {
      writeFileSync(log, 'old line\n');
      const { seen, onLines } = collect();
      const follower = followFile(log, onLines, { everyMs: 60_000, stateFile: state });
      appendFileSync(log, 'one\ntwo\nthr');
      await follower.poll();
      expect(seen).toEqual(['one', 'two']);
      appendFileSync(log, 'ee\n');
      await follower.poll();
      expect(seen).toEqual(['one', 'two', 'three']);
      follower.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('goes on after a restart where it stopped: nothing logged meanwhile is missed', async () => {
    const { dir, log, state } = setup();
    try {
      writeFileSync(log, '');
      const before = collect();
      const first = followFile(log, before.onLines, { everyMs: 60_000, stateFile: state });
      appendFileSync(log, 'before the stop\n');
      await first.poll();
      first.stop();
      appendFileSync(log, 'while it was down\n');
      const after = collect();
      const second = followFile(log, after.onLines, { everyMs: 60_000, stateFile: state });
      appendFileSync(log, 'after the start\n');
      await second.poll();
      second.stop();
      expect(before.seen).toEqual(['before the stop']);
      expect(after.seen).toEqual(['while it was down', 'after the start']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('goes on from where it started when it restarts before the first new line', async () => {
    const { dir, log, state } = setup();
    try {
      writeFileSync(log, 'before the start\n');
      const first = followFile(log, collect().onLines, { everyMs: 60_000, stateFile: state });
      first.stop();
      appendFileSync(log, 'while it was down\n');
      const after = collect();
      const second = followFile(log, after.onLines, { everyMs: 60_000, stateFile: state });
      await second.poll();
      second.stop();
      expect(after.seen).toEqual(['while it was down']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a batch again when it could not be written, and a replaced file from its start', async () => {
    const { dir, log, state } = setup();
    try {
      writeFileSync(log, '');
      const seen: string[] = [];
      let failing = true;
      const follower = followFile(
        log,
        async (lines) => {
          if (failing) throw new Error('database away');
          seen.push(...lines);
        },
        { everyMs: 60_000, stateFile: state },
      );
      appendFileSync(log, 'kept for later\n');
      await follower.poll();
      expect(seen).toEqual([]);
      failing = false;
      await follower.poll();
      expect(seen).toEqual(['kept for later']);
      // Rotated: a new file (another inode) under the same name.
      renameSync(log, `${log}.1`);
      writeFileSync(log, 'first of the new file\n');
      await follower.poll();
      expect(seen).toEqual(['kept for later', 'first of the new file']);
      follower.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
