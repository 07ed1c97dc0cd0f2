import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionListAnswerSchema } from '@berth/contracts';
import { createCustomer, createTestApp, login, type TestApp } from '../../../test/harness.ts';
import { addTenant, addUser, sessionFor } from '../../../test/hosting.ts';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0';

describe('/api/account/sessions', () => {
  it('lists the own sessions with device, IP and last seen, marking the current one', async () => {
    const phone = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'user-agent': FIREFOX },
      payload: { email: 'admin@localhost', password: 'sturdy lantern orchard velvet' },
    });
    expect(phone.statusCode).toBe(200);
    const { cookie } = await login(t.app);
    const list = sessionListAnswerSchema.parse((await t.app.inject({ url: '/api/account/sessions', headers: { cookie } })).json());
    expect(list.data).toHaveLength(2);
    expect(list.data.filter((s) => s.current)).toHaveLength(1);
    expect(list.data.map((s) => s.device)).toContain('Firefox on Windows');
    expect(list.data[0]?.ip).toBe('127.0.0.1');
  });

  it('revokes one of the own sessions, and cannot touch another user’s', async () => {
    const a = await login(t.app);
    const b = await login(t.app);
    const customer = await createCustomer(t, 'cust@localhost');
    const c = await login(t.app, customer.email, customer.password);
    const mine = sessionListAnswerSchema.parse(
      (await t.app.inject({ url: '/api/account/sessions', headers: { cookie: a.cookie } })).json(),
    );
    const other = mine.data.find((s) => !s.current);
    const theirs = sessionListAnswerSchema.parse(
      (await t.app.inject({ url: '/api/account/sessions', headers: { cookie: c.cookie } })).json(),
    );

    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/api/account/sessions/${theirs.data[0]?.id}`,
      headers: { cookie: a.cookie },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: c.cookie } })).statusCode).toBe(200);

    const revoke = await t.app.inject({ method: 'DELETE', url: `/api/account/sessions/${other?.id}`, headers: { cookie: a.cookie } });
    expect(revoke.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: b.cookie } })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/user', headers: { cookie: a.cookie } })).statusCode).toBe(200);
  });
});

describe("a session on another tenant's host", () => {
  it("is no session there for a customer, is for a super admin, and the customer's own host still works", async () => {
    const second = await addTenant(t, 'Second', 'second.example.com');
    await addTenant(t, 'Third', 'third.example.com');
    const { user: customer } = await addUser(t, second, 'roamer@second.example.com', 'customer');
    const cookie = await sessionFor(t, customer);
    const user = (host: string, sessionCookie: string) =>
      t.app.inject({ method: 'GET', url: '/api/user', headers: { host, cookie: sessionCookie } });
    expect((await user('second.example.com', cookie)).statusCode).toBe(200);
    expect((await user('third.example.com', cookie)).statusCode).toBe(401);
    expect((await user('localhost', cookie)).statusCode).toBe(401);
    expect((await user('second.example.com', cookie)).statusCode).toBe(200);
    const { cookie: admin } = await login(t.app);
    expect((await user('third.example.com', admin)).statusCode).toBe(200);
  });
});
