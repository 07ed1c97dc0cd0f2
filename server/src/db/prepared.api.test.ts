import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createCustomer, createTestApp, login, type TestApp } from '../../test/harness.ts';

// The session lookup is a named prepared statement on PostgreSQL (db/connection.ts `prepared`).
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
