import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createCustomer, createTestApp, login, type TestApp } from '../../test/harness.ts';
import { preparedStatement, type Db } from './connection.ts';
import { findLoginCandidateTakingTries, recordSignIn } from '../modules/auth/queries.ts';

const onPostgres = process.env.BERTH_TEST_DB === 'postgres';

// The session lookup is a named prepared statement on PostgreSQL (db/connection.ts `preparedStatement`).
// A migration that changes a table under it must not break the sessions of a running server.
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('prepared statements', () => {
  it('keep answering after a migration adds a column to a table they read', async () => {
    t = await createTestApp();
    const customer = await createCustomer(t, 'prepared@example.test');
    const { cookie } = await login(t.app, customer.email, customer.password);
    // Several requests, so every pooled connection that served one holds the statement.
    for (let i = 0; i < 12; i++) expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(200);
    await sql`alter table users add column prepared_probe text`.execute(t.db);
    const answers = await Promise.all(Array.from({ length: 12 }, () => t!.app.inject({ url: '/api/user', headers: { cookie } })));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(12).fill(200));
    expect(answers[0]?.json().data.user.email).toBe('prepared@example.test');
  });
});

describe('preparedStatement', () => {
  it('puts each call’s values in place of the stand-ins it compiled once', async () => {
    t = await createTestApp();
    const echo = preparedStatement('berth_test_echo', (db, v: { word: string; count: number }) =>
      sql<{
        word: string;
        count: number;
        fixed: string;
      }>`select ${v.word}::text as word, ${v.count}::int as count, ${'fixed'}::text as fixed`.compile(db),
    );
    const answers = await Promise.all(['one', 'Two', ' three '].map((word, count) => echo(t!.db, { word, count })));
    expect(answers.map(({ rows }) => rows[0])).toEqual([
      { word: 'one', count: 0, fixed: 'fixed' },
      { word: 'Two', count: 1, fixed: 'fixed' },
      { word: ' three ', count: 2, fixed: 'fixed' },
    ]);
  });

  it('refuses, at the first call, a value changed on its way into the query', async () => {
    t = await createTestApp();
    const lowered = preparedStatement('berth_test_lowered', (db, v: { email: string }) =>
      sql`select ${v.email.toLowerCase()}::text`.compile(db),
    );
    await expect(lowered(t.db, { email: 'A@B.test' })).rejects.toThrow(/changed on its way/);
    const serialized = preparedStatement('berth_test_json', (db, v: { data: object }) =>
      sql`select ${JSON.stringify(v.data)}::jsonb`.compile(db),
    );
    await expect(serialized(t.db, { data: { a: 1 } })).rejects.toThrow(/changed on its way/);
    const shaped = preparedStatement('berth_test_shaped', (db, v: { ids: number[] }) =>
      v.ids.length > 0 ? sql`select 1`.compile(db) : sql`select 2`.compile(db),
    );
    await expect(shaped(t.db, { ids: [] })).rejects.toThrow(/ids did not reach the query/);
  });
});

// A sign-in is committed without waiting for the disk (docs/decisions/0022-sign-in-commits-asynchronously.md);
// every other write on the same pooled connection must still wait for it.
describe('the sign-in statement', () => {
  it('commits asynchronously, and the setting ends with its own transaction', async () => {
    t = await createTestApp();
    const customer = await createCustomer(t, 'async-commit@example.test');
    const { audit, sessions } = t.services;
    const signIn = (db: Db) => {
      const { row } = sessions.prepare({ userId: customer.user.id, tenantId: 1, remember: false, ip: '192.0.2.1', userAgent: 'commit' });
      const auditRow = audit.row({ action: 'auth.login.success', tenantId: 1, userId: customer.user.id, ip: '192.0.2.1' });
      return recordSignIn(db, { id: null, key: 'commit-account:none' }, auditRow, row);
    };
    const commitMode = async (db: Db) => (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db)).rows[0];
    // Inside a transaction the statement's setting is still in force when it commits.
    const during = await t.db.transaction().execute(async (trx) => {
      await signIn(trx);
      return commitMode(trx);
    });
    expect(during).toEqual({ synchronous_commit: 'off' });
    // On its own it is its own transaction: the next statement on that connection commits as usual.
    const after = await t.db.connection().execute(async (connection) => {
      await signIn(connection);
      return commitMode(connection);
    });
    expect(after).toEqual({ synchronous_commit: 'on' });
    const written = await sql<{ sessions: number; audits: number }>`
      select (select count(*)::int from sessions where user_id = ${customer.user.id} and user_agent = 'commit') as sessions,
             (select count(*)::int from audit_log where user_id = ${customer.user.id} and action = 'auth.login.success') as audits`.execute(
      t.db,
    );
    expect(written.rows[0]).toEqual({ sessions: 2, audits: 2 });
  });
});

// PostgreSQL plans a prepared statement afresh for its first five runs, then keeps a generic plan
// unless that looks dearer than the fresh ones; a statement it plans again at every run costs each
// sign-in a planning (bench: logins against raw argon2id verifies).
describe.runIf(onPostgres)('the sign-in statements on PostgreSQL', () => {
  it('are planned once per connection, not at every sign-in', async () => {
    t = await createTestApp();
    const customer = await createCustomer(t, 'planned@example.test');
    const { audit, sessions, clock } = t.services;
    const plans = await t.db.connection().execute(async (connection) => {
      for (let i = 0; i < 10; i++) {
        const now = clock.now();
        const since = new Date(now.getTime() - 60_000);
        const found = await findLoginCandidateTakingTries(connection, 1, customer.email, {
          now,
          mine: { prefix: 'plan-account:', since, limit: 100 },
          theirs: { key: 'plan-ip:192.0.2.1', since, limit: 100 },
        });
        expect(found.user?.id).toBe(customer.user.id);
        const ipHit = found.hits[1];
        const { row } = sessions.prepare({ userId: customer.user.id, tenantId: 1, remember: false, ip: '192.0.2.1', userAgent: 'plan' });
        await recordSignIn(
          connection,
          { id: 'id' in ipHit ? ipHit.id : null, key: `plan-account:${found.key}` },
          audit.row({ action: 'auth.login.success', tenantId: 1, userId: customer.user.id, ip: '192.0.2.1' }),
          row,
        );
      }
      return (
        await sql<{ name: string; generic_plans: number; custom_plans: number }>`
          select name, generic_plans::int, custom_plans::int from pg_prepared_statements
           where name in ('berth_login_candidate_tries', 'berth_sign_in') order by name`.execute(connection)
      ).rows;
    });
    expect(plans).toEqual([
      { name: 'berth_login_candidate_tries', generic_plans: 5, custom_plans: 5 },
      { name: 'berth_sign_in', generic_plans: 5, custom_plans: 5 },
    ]);
    // Every try the sign-ins took was released by them: none stands on the account or the address.
    const left = await sql<{ count: number }>`select count(*)::int as count from throttle_hits where key like 'plan-%'`.execute(t.db);
    expect(left.rows[0]?.count).toBe(0);
  });
});
