import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createCustomer, createTestApp, type TestApp } from '../../../test/harness.ts';
import { solveAltcha } from '../../../test/captcha.ts';
import { mailsTo } from '../../../test/outbox.ts';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await createCustomer(t, KNOWN);
});
afterEach(async () => {
  await t.close();
});

const KNOWN = 'known@localhost';
const UNKNOWN = 'nobody@localhost';

/** Rows per table: what a request wrote, whatever table it wrote to. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(t.db);
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const result = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(name)}`.execute(t.db);
    counts[name] = result.rows[0]?.n ?? 0;
  }
  return counts;
}

const delta = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.keys(after).map((name) => [name, (after[name] ?? 0) - (before[name] ?? 0)]));

/**
 * The request path must do the same work for a known and an unknown address: same answer, same
 * rows written, and no account lookup (its audit entry, reset row or code) before the answer.
 */
async function requestPathOf(call: (email: string) => Promise<{ statusCode: number; body: string }>) {
  const release = t.services.jobs.hold();
  const start = await rowCounts();
  const unknown = await call(UNKNOWN);
  const afterUnknown = await rowCounts();
  const known = await call(KNOWN);
  const afterKnown = await rowCounts();
  release();
  await t.services.jobs.idle();
  return { unknown, known, unknownWrites: delta(start, afterUnknown), knownWrites: delta(afterUnknown, afterKnown) };
}

describe('account enumeration', () => {
  it('forgot-password: the same answer and the same writes for a known and an unknown address; the mail follows', async () => {
    const run = await requestPathOf((email) => t.app.inject({ method: 'POST', url: '/api/password/forgot', payload: { email } }));
    expect(run.known.statusCode).toBe(200);
    expect(run.unknown.statusCode).toBe(200);
    expect(run.unknown.body).toBe(run.known.body);
    expect(run.knownWrites).toEqual(run.unknownWrites);
    expect(run.knownWrites['password_resets']).toBe(0);
    expect(run.knownWrites['audit_log']).toBe(0);
    expect(await mailsTo(t.db, KNOWN)).toHaveLength(1);
    expect(await mailsTo(t.db, UNKNOWN)).toHaveLength(0);
  });

  it('one-time code: the same answer shape and the same writes for a known and an unknown address; the code follows', async () => {
    const run = await requestPathOf((email) => t.app.inject({ method: 'POST', url: '/api/password/otp', payload: { email } }));
    expect(run.known.statusCode).toBe(200);
    expect(run.unknown.statusCode).toBe(200);
    const shape = (body: string) => {
      const answer = JSON.parse(body) as { notice: string; data: { uniq_id: string } };
      return { notice: answer.notice, idLength: answer.data.uniq_id.length };
    };
    expect(shape(run.unknown.body)).toEqual(shape(run.known.body));
    expect(run.knownWrites).toEqual(run.unknownWrites);
    expect(run.knownWrites['audit_log']).toBe(0);
    expect(await mailsTo(t.db, KNOWN)).toHaveLength(1);
    expect(await mailsTo(t.db, UNKNOWN)).toHaveLength(0);
  });

  it('registration: the same answer and the same writes for a new address and one with an account; each gets its mail', async () => {
    const captchas = [await solveAltcha(t.app), await solveAltcha(t.app)];
    const run = await requestPathOf(async (email) => {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/registration',
        payload: {
          contact: { given_name: 'Ada', sn: 'Lovelace' },
          email,
          password: 'a long enough passphrase of mine',
          password_confirmation: 'a long enough passphrase of mine',
          terms_agreement: true,
          processing_personal_data_agreement: true,
          g_recaptcha_response: captchas.pop() ?? '',
        },
      });
      return answer;
    });
    expect(run.known.statusCode).toBe(200);
    expect(run.unknown.body).toBe(run.known.body);
    expect(run.knownWrites).toEqual(run.unknownWrites);
    expect(run.unknownWrites['registrations']).toBe(0);
    expect((await mailsTo(t.db, KNOWN)).map((mail) => mail.subject)).toEqual([expect.stringMatching(/tried to register/)]);
    expect((await mailsTo(t.db, UNKNOWN)).map((mail) => mail.subject)).toEqual([expect.stringMatching(/Confirm your e-mail/)]);
  });
});
