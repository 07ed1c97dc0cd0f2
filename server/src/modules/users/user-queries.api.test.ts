import { afterEach, describe, expect, it } from 'vitest';
import { createCustomer, createTestApp, login, type TestApp } from '../../../test/harness.ts';

// The hot path of the API (issue: fast pages): a signed-in GET /api/user is one query, the
// session with its user, impersonator and credit; the tenant comes from the in-process cache.
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('GET /api/user', () => {
  it('costs one query for a plain session, and the revocation of that session still shows at once', async () => {
    const statements: string[] = [];
    let counting = false;
    t = await createTestApp({ onQuery: (sql) => counting && statements.push(sql) });
    const customer = await createCustomer(t, 'hot-path@example.test');
    const { cookie } = await login(t.app, customer.email, customer.password);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(200);

    counting = true;
    for (let i = 0; i < 5; i++) {
      const answer = await t.app.inject({ url: '/api/user', headers: { cookie } });
      expect(answer.json().data.user.email).toBe('hot-path@example.test');
    }
    counting = false;
    expect(statements).toHaveLength(5);
    expect(statements.every((sql) => /from "sessions"/.test(sql))).toBe(true);

    // Nothing of the session is cached: a session ended elsewhere is refused on the next request.
    await t.db.deleteFrom('sessions').where('user_id', '=', customer.user.id).execute();
    expect((await t.app.inject({ url: '/api/user', headers: { cookie } })).statusCode).toBe(401);
  });
});
