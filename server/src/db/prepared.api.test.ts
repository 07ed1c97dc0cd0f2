import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createCustomer, createTestApp, login, type TestApp } from '../../test/harness.ts';
import { preparedStatement } from './connection.ts';

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
