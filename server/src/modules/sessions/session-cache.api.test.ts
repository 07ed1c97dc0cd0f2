import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildApp, type Services } from '../../app.ts';
import { openDatabase } from '../../db/connection.ts';
import { createCustomer, createTestApp, login, type TestApp } from '../../../test/harness.ts';
import { SessionCache } from './cache.ts';

// The hot path of the API (issue: fast pages). On PostgreSQL every instance keeps the sessions it
// resolved in memory (cache.ts) and the database announces every change to what they hold
// (migration 0021); on PGlite (one process, no network between) every request reads the session.
const onPostgres = process.env.BERTH_TEST_DB === 'postgres';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function firstInstance(statements?: string[]): Promise<{ t: TestApp; counting: { on: boolean } }> {
  const counting = { on: false };
  const t = await createTestApp(statements ? { onQuery: (sql) => void (counting.on && statements.push(sql)) } : {});
  closers.push(() => t.close());
  return { t, counting };
}

/** Another instance of the app on the same database, as a second server behind a load balancer. */
async function secondInstance(t: TestApp, onQuery?: (sql: string) => void): Promise<{ app: FastifyInstance; services: Services }> {
  if (!t.databaseUrl) throw new Error('a second instance needs PostgreSQL');
  const handle = await openDatabase({ databaseUrl: t.databaseUrl, dataDir: '', ...(onQuery ? { onQuery } : {}) });
  const built = await buildApp({
    config: t.config,
    db: handle.db,
    clock: t.clock,
    logger: pino({ level: 'silent' }),
    webDistDir: '/nonexistent',
  });
  await built.app.ready();
  closers.push(async () => {
    await built.app.close();
    await handle.close();
  });
  return built;
}

/** Asks until `check` holds, for at most five seconds of real time; the app's clock does not move. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('still not so after 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const userOn = (app: FastifyInstance, cookie: string) => app.inject({ url: '/api/user', headers: { cookie } });

describe.runIf(!onPostgres)('sessions on PGlite', () => {
  it('are read from the database on every request: a session ended behind the app is refused at once', async () => {
    const statements: string[] = [];
    const { t, counting } = await firstInstance(statements);
    expect(t.services.sessions.cache).toBeUndefined();
    const customer = await createCustomer(t, 'hot-path@example.test');
    const { cookie } = await login(t.app, customer.email, customer.password);
    expect((await userOn(t.app, cookie)).statusCode).toBe(200);

    counting.on = true;
    for (let i = 0; i < 5; i++) expect((await userOn(t.app, cookie)).json().data.user.email).toBe('hot-path@example.test');
    counting.on = false;
    // One query per request: the session with its user, impersonator and credit (the tenant is cached).
    expect(statements).toHaveLength(5);
    expect(statements.every((sql) => /from "sessions"/.test(sql))).toBe(true);

    await t.db.deleteFrom('sessions').where('user_id', '=', customer.user.id).execute();
    expect((await userOn(t.app, cookie)).statusCode).toBe(401);
  });
});

describe.runIf(onPostgres)('sessions kept in memory on PostgreSQL', () => {
  it('answer a signed-in request without a query once read', async () => {
    const statements: string[] = [];
    const { t, counting } = await firstInstance(statements);
    const customer = await createCustomer(t, 'hot-path@example.test');
    const { cookie } = await login(t.app, customer.email, customer.password);
    await eventually(async () => t.services.sessions.cache?.active === true);
    expect((await userOn(t.app, cookie)).statusCode).toBe(200);

    counting.on = true;
    for (let i = 0; i < 5; i++) expect((await userOn(t.app, cookie)).json().data.user.email).toBe('hot-path@example.test');
    counting.on = false;
    expect(statements).toEqual([]);
  });

  it('a session ended on one instance is refused on another without its clock moving', async () => {
    const { t } = await firstInstance();
    const queriesOnB: string[] = [];
    const b = await secondInstance(t, (sql) => void queriesOnB.push(sql));
    const customer = await createCustomer(t, 'two-instances@example.test');
    const { cookie } = await login(t.app, customer.email, customer.password);
    expect((await userOn(b.app, cookie)).statusCode).toBe(200);
    queriesOnB.length = 0;
    expect((await userOn(b.app, cookie)).statusCode).toBe(200);
    expect(queriesOnB).toEqual([]); // B answers from memory now

    const logout = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    expect(logout.statusCode).toBeLessThan(300);
    await eventually(async () => (await userOn(b.app, cookie)).statusCode === 401);
    expect((await userOn(t.app, cookie)).statusCode).toBe(401);
  });

  it("whatever writes it: a credit, a picture, a name, an impersonation, its admin's address and a lock made by SQL reach every instance", async () => {
    const { t } = await firstInstance();
    const b = await secondInstance(t);
    const customer = await createCustomer(t, 'changes@example.test');
    const { cookie } = await login(t.app, customer.email, customer.password);
    const me = async () => (await userOn(b.app, cookie)).json().data.user;
    expect((await me()).commission.value).toBe(0);
    expect((await me()).image.custom).toBe(false);

    await t.db
      .insertInto('credit_accounts')
      .values({ user_id: customer.user.id, tenant_id: customer.user.tenant_id, balance: 1234, currency: 'EUR', updated_at: t.clock.now() })
      .execute();
    await eventually(async () => (await me()).commission.value === 12.34);

    await t.db
      .insertInto('user_avatars')
      .values({ user_id: customer.user.id, image: Buffer.from('png'), updated_at: t.clock.now() })
      .execute();
    await eventually(async () => (await me()).image.custom === true);

    await t.db.updateTable('users').set({ given_name: 'Renamed' }).where('id', '=', customer.user.id).execute();
    await eventually(async () => (await me()).contact.given_name === 'Renamed');

    const session = await t.db.selectFrom('sessions').select('id_hash').where('user_id', '=', customer.user.id).executeTakeFirstOrThrow();
    await t.db
      .insertInto('session_impersonations')
      .values({ session_id_hash: session.id_hash, impersonator_id: 1, impersonator_remember: false, started_at: t.clock.now() })
      .execute();
    await eventually(async () => (await userOn(b.app, cookie)).json().data.user.impersonator?.email === 'admin@localhost');
    await t.db.updateTable('users').set({ email: 'operator@localhost' }).where('id', '=', 1).execute();
    await eventually(async () => (await userOn(b.app, cookie)).json().data.user.impersonator?.email === 'operator@localhost');

    await t.db.updateTable('users').set({ locked_at: t.clock.now() }).where('id', '=', customer.user.id).execute();
    await eventually(async () => (await userOn(b.app, cookie)).statusCode === 401);
  });

  it("an instance's own write shows on its next request, with no wait", async () => {
    const { t } = await firstInstance();
    const customer = await createCustomer(t, 'own-write@example.test');
    const { cookie } = await login(t.app, customer.email, customer.password);
    await eventually(async () => t.services.sessions.cache?.active === true);
    expect((await userOn(t.app, cookie)).json().data.user.contact.given_name).not.toBe('Changed');
    const changed = await t.app.inject({
      method: 'PATCH',
      url: '/api/user/profile',
      headers: { cookie },
      payload: {
        given_name: 'Changed',
        sn: 'Owner',
        phone: '',
        company: '',
        vat_id: '',
        street: '',
        city: '',
        postal_code: '',
        country: 'cz',
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await userOn(t.app, cookie)).json().data.user.contact.given_name).toBe('Changed');
  });

  it('while its listener is away nothing is answered from memory, and it comes back by itself', async () => {
    const { t } = await firstInstance();
    const queriesOnB: string[] = [];
    const b = await secondInstance(t, (sql) => void queriesOnB.push(sql));
    const cache = b.services.sessions.cache;
    const customer = await createCustomer(t, 'listener@example.test');
    const { cookie } = await login(t.app, customer.email, customer.password);
    await eventually(async () => cache?.active === true);
    expect((await userOn(b.app, cookie)).statusCode).toBe(200);

    // The server ends the listening connections (as a restart or a failover does).
    const admin = new pg.Client({ connectionString: t.databaseUrl });
    await admin.connect();
    try {
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
      );
    } finally {
      await admin.end();
    }
    await eventually(async () => cache?.active === false);
    await t.db.updateTable('users').set({ given_name: 'While away' }).where('id', '=', customer.user.id).execute();
    queriesOnB.length = 0;
    expect((await userOn(b.app, cookie)).json().data.user.contact.given_name).toBe('While away');
    expect(queriesOnB.length).toBe(1);

    await eventually(async () => cache?.active === true);
    await userOn(b.app, cookie);
    queriesOnB.length = 0;
    expect((await userOn(b.app, cookie)).statusCode).toBe(200);
    expect(queriesOnB).toEqual([]);
  });

  it('keeps no read that was under way while a change was announced', async () => {
    const { t } = await firstInstance();
    const cache = new SessionCache<{ id: number }>({ databaseUrl: t.databaseUrl ?? '', clock: t.clock });
    closers.push(() => cache.close());
    await cache.start();
    expect(cache.active).toBe(true);
    const begun = cache.begin();
    await t.db.updateTable('users').set({ given_name: 'Meanwhile' }).where('id', '=', 1).execute();
    await eventually(async () => cache.begin() !== begun);
    cache.keep('hash', { id: 1 }, { userId: 1, impersonatorId: null }, begun);
    expect(cache.get('hash')).toBeUndefined();
    cache.keep('hash', { id: 1 }, { userId: 1, impersonatorId: null }, cache.begin());
    expect(cache.get('hash')).toEqual({ id: 1 });
    // After its time a kept session is read again even without an announcement.
    t.clock.advance(5_001);
    expect(cache.get('hash')).toBeUndefined();
  });
});
