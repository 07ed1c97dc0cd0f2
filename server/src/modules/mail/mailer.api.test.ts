import { createServer, type AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../test/harness.ts';
import { startSmtpReceiver, type ReceivedMail } from '../../../test/smtp-receiver.ts';
import { ManualClock } from '../../lib/clock.ts';
import { MailDeliveryError, Mailer, type MailRequest } from './mailer.ts';

/* ---- a small MIME reader (mailparser is not a dependency) ---- */

interface MimePart {
  headers: Map<string, string>;
  parts: MimePart[];
  body: string;
}

const decodeWords = (value: string) =>
  value
    .replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_all, _charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );

function parseMime(raw: string): MimePart {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const rest = raw.slice(split + 4);
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (type.toLowerCase().startsWith('multipart/') && boundary) {
    const sections = rest.split(`--${boundary}`).slice(1, -1);
    return { headers, parts: sections.map((s) => parseMime(s.replace(/^\r\n/, ''))), body: '' };
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  let bytes: Buffer;
  if (encoding === 'base64') bytes = Buffer.from(rest.replace(/\s+/g, ''), 'base64');
  else if (encoding === 'quoted-printable') {
    bytes = Buffer.from(
      rest.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    );
  } else bytes = Buffer.from(rest, 'latin1');
  return { headers, parts: [], body: bytes.toString('utf8') };
}

function leaf(part: MimePart, mimeType: string): string | undefined {
  if (part.parts.length === 0) return (part.headers.get('content-type') ?? '').startsWith(mimeType) ? part.body : undefined;
  for (const child of part.parts) {
    const found = leaf(child, mimeType);
    if (found !== undefined) return found;
  }
  return undefined;
}

/* ---- log capture ---- */

function captureLog() {
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  return { log, lines, text: () => lines.join('') };
}

/* ---- tests ---- */

let database: TestDatabase;
let tenantId = 0;
let otherTenantId = 0;

beforeAll(async () => {
  database = await openTestDatabase({ migrated: true });
  const rows = await database.db
    .insertInto('tenants')
    .values([{ title: 'Acme Hosting' }, { title: 'Other Reseller' }])
    .returning('id')
    .execute();
  tenantId = rows[0]!.id;
  otherTenantId = rows[1]!.id;
});
afterAll(async () => {
  await database.close();
});
beforeEach(async () => {
  await database.db.deleteFrom('outbox').execute();
});

const RESET_LINK = 'https://acme.example.com/password/reset/u-123/t0k3n-abc?lang=en&x=1';
const OTP_LINK = 'https://acme.example.com/password/otplogin?uniq_id=u-456&otp=K7Q2ZP';

const resetMail = (overrides: Partial<MailRequest<'password_reset'>> = {}): MailRequest<'password_reset'> => ({
  to: 'jane@example.com',
  language: 'en',
  tenantId,
  tenantTitle: 'Acme Hosting',
  kind: 'password_reset',
  params: { name: 'Jane Doe', link: RESET_LINK, minutes: 60 },
  ...overrides,
});

const otpMail = (): MailRequest<'otp_code'> => ({
  to: 'jan@example.cz',
  language: 'cs',
  tenantId,
  tenantTitle: 'Acme Hosting',
  kind: 'otp_code',
  params: { name: 'Jan Novák', code: 'K7Q2ZP', link: OTP_LINK, minutes: 10 },
});

describe('Mailer without SMTP_URL (outbox)', () => {
  it('writes the rendered mail to the outbox and, outside production, logs its links', async () => {
    const clock = new ManualClock(new Date('2026-11-01T09:00:00Z'));
    const capture = captureLog();
    const mailer = new Mailer({ db: database.db, clock, log: capture.log, from: 'noreply@example.com', production: false });
    expect(mailer.mode).toBe('outbox');
    await mailer.send(resetMail());

    const rows = await database.db.selectFrom('outbox').selectAll().execute();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({ tenant_id: tenantId, recipient: 'jane@example.com', subject: 'Reset your password for Acme Hosting' });
    expect(new Date(row.created_at).toISOString()).toBe('2026-11-01T09:00:00.000Z');
    expect(row.text_body).toContain(RESET_LINK);
    expect(row.text_body).toContain('Hello Jane Doe,');
    expect(row.html_body).toContain('<html lang="en"');
    expect(row.html_body).toContain('href="https://acme.example.com/password/reset/u-123/t0k3n-abc?lang=en&amp;x=1"');

    expect(capture.lines).toHaveLength(1);
    const entry = JSON.parse(capture.lines[0]!) as { level: number; msg: string; mail: { to: string; subject: string; links: string[] } };
    expect(entry.level).toBe(30);
    expect(entry.mail).toMatchObject({ to: 'jane@example.com', subject: 'Reset your password for Acme Hosting', links: [RESET_LINK] });
    expect(entry.msg).toContain(RESET_LINK);
    expect(capture.text()).not.toContain('Hello Jane Doe'); // the body itself is never logged
    await mailer.close();
  });

  it('in production logs neither links, codes nor the body', async () => {
    const capture = captureLog();
    const mailer = new Mailer({
      db: database.db,
      clock: new ManualClock(),
      log: capture.log,
      from: 'noreply@example.com',
      production: true,
    });
    await mailer.send(otpMail());
    expect(await database.db.selectFrom('outbox').select('id').execute()).toHaveLength(1);
    expect(capture.lines).toHaveLength(1);
    const logged = capture.text();
    expect(logged).toContain('mail written to the outbox');
    expect(logged).not.toContain('K7Q2ZP');
    expect(logged).not.toContain('https://');
    expect(logged).not.toContain('Jan Novák');
  });

  it('logs a failed outbox write without the body (database errors carry the query parameters) and rethrows', async () => {
    const capture = captureLog();
    const mailer = new Mailer({
      db: database.db,
      clock: new ManualClock(),
      log: capture.log,
      from: 'noreply@example.com',
      production: true,
    });
    const error = await mailer.send(resetMail({ tenantId: 999_999 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect((error as MailDeliveryError).message).toMatch(/foreign key/);
    expect(capture.lines).toHaveLength(1);
    // A caller that logs the rethrown error does not leak the body either.
    capture.log.error({ err: error }, 'caller gave up');
    expect(JSON.parse(capture.lines[0]!)).toMatchObject({ level: 50, msg: 'mail delivery failed', err: { code: '23503' } });
    expect(capture.text()).not.toContain('t0k3n-abc');
    expect(capture.text()).not.toContain('Jane Doe');
  });

  it('lists the outbox newest first, optionally for one tenant', async () => {
    const clock = new ManualClock(new Date('2026-11-01T09:00:00Z'));
    const mailer = new Mailer({ db: database.db, clock, log: captureLog().log, from: 'noreply@example.com', production: false });
    await mailer.send(resetMail({ to: 'first@example.com' }));
    clock.advance(60_000);
    await mailer.send(resetMail({ to: 'second@example.com', tenantId: otherTenantId, tenantTitle: 'Other Reseller' }));
    clock.advance(60_000);
    await mailer.send(resetMail({ to: 'third@example.com', tenantId: null }));

    const all = await mailer.outbox();
    expect(all.map((m) => m.to)).toEqual(['third@example.com', 'second@example.com', 'first@example.com']);
    expect(all[0]).toMatchObject({ subject: 'Reset your password for Acme Hosting', created_at: '2026-11-01T09:02:00.000Z' });
    expect(all[0]!.text).toContain(RESET_LINK);
    expect(all[0]!.html).toContain('<!DOCTYPE html>');
    expect((await mailer.outbox({ tenantId: otherTenantId })).map((m) => m.to)).toEqual(['second@example.com']);
  });
});

describe('Mailer with SMTP_URL', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  beforeAll(async () => {
    smtp = await startSmtpReceiver();
  });
  afterAll(async () => {
    await smtp.close();
  });

  it('delivers text and HTML from the tenant brand, and keeps the outbox empty', async () => {
    const capture = captureLog();
    const mailer = new Mailer({
      db: database.db,
      clock: new ManualClock(),
      log: capture.log,
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      from: 'Berth <noreply@example.com>',
      production: true,
    });
    expect(mailer.mode).toBe('smtp');
    await mailer.send(resetMail({ tenantTitle: 'Acme "Hosting" & Co' }));
    await mailer.send(otpMail());
    await mailer.close();

    expect(smtp.received).toHaveLength(2);
    const [reset, otp] = smtp.received as [ReceivedMail, ReceivedMail];
    expect(reset.mailFrom).toBe('noreply@example.com');
    expect(reset.rcptTo).toEqual(['jane@example.com']);

    const message = parseMime(reset.raw);
    expect(message.headers.get('from')).toBe('"Acme \\"Hosting\\" & Co" <noreply@example.com>');
    expect(message.headers.get('to')).toBe('jane@example.com');
    expect(message.headers.get('subject')).toBe('Reset your password for Acme "Hosting" & Co');
    const text = leaf(message, 'text/plain');
    const html = leaf(message, 'text/html');
    expect(text).toContain('Hello Jane Doe,');
    expect(text).toContain(RESET_LINK);
    expect(html).toContain('href="https://acme.example.com/password/reset/u-123/t0k3n-abc?lang=en&amp;x=1"');
    expect(html).toContain('Acme &quot;Hosting&quot; &amp; Co');

    // UTF-8 survives the trip: a Czech subject, name and body.
    const czech = parseMime(otp.raw);
    expect(otp.rcptTo).toEqual(['jan@example.cz']);
    expect(czech.headers.get('from')).toBe('Acme Hosting <noreply@example.com>');
    expect(czech.headers.get('subject')).toBe('Váš jednorázový přihlašovací kód pro Acme Hosting');
    expect(leaf(czech, 'text/plain')).toContain('Dobrý den, Jan Novák,');
    expect(leaf(czech, 'text/plain')).toContain(OTP_LINK);
    expect(leaf(czech, 'text/html')).toContain('K7Q2ZP');
    expect(leaf(czech, 'text/html')).toContain('<html lang="cs"');

    expect(await database.db.selectFrom('outbox').select('id').execute()).toHaveLength(0);
    expect(capture.text()).toContain('mail sent');
    expect(capture.text()).not.toContain('t0k3n-abc');
    expect(capture.text()).not.toContain('K7Q2ZP');
  });

  it('logs a failed delivery without the body and rethrows', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const capture = captureLog();
    const mailer = new Mailer({
      db: database.db,
      clock: new ManualClock(),
      log: capture.log,
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'noreply@example.com',
      production: true,
    });
    await expect(mailer.send(resetMail())).rejects.toBeInstanceOf(MailDeliveryError);
    await mailer.close();

    const entries = capture.lines.map((line) => JSON.parse(line) as { level: number; msg: string; mail?: { kind: string } });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ level: 50, msg: 'mail delivery failed', mail: { kind: 'password_reset' } });
    expect(capture.text()).not.toContain('t0k3n-abc');
    expect(capture.text()).not.toContain('Jane Doe');
    expect(await database.db.selectFrom('outbox').select('id').execute()).toHaveLength(0);
  });
});
