import argon2 from 'argon2';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, login, type TestApp } from '../harness.ts';

// In the faults project, whose files each load the server afresh (vitest.config.ts), so the hashing
// threads (server/src/lib/password.ts) start anew for this file and each is seen by the listener.
const threads: Worker[] = [];
const note = (worker: Worker) => threads.push(worker);
let t: TestApp;
beforeAll(async () => {
  process.on('worker', note);
  t = await createTestApp();
});
afterAll(async () => {
  process.off('worker', note);
  await t.close();
});

/** Resolves once some hashing thread has been busy for `ms` in a row (its event loop's active time). */
async function untilHashing(ms: number): Promise<void> {
  const since = threads.map((thread) => thread.performance.eventLoopUtilization());
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await sleep(5)) {
    if (threads.some((thread, index) => thread.performance.eventLoopUtilization(since[index]).active >= ms)) return;
  }
  throw new Error(`no hashing thread was busy for ${ms} ms (${threads.length} seen)`);
}

describe('a hashing thread stopped under a login', () => {
  it('answers 503 with Retry-After, writes no session, and the next login signs in on a new thread', async () => {
    const slow = await argon2.hash(ADMIN_PASSWORD, { type: argon2.argon2id, memoryCost: 65_536, timeCost: 20, parallelism: 1 });
    const kept = await t.db.selectFrom('users').select('password_hash').where('email', '=', ADMIN_EMAIL).executeTakeFirstOrThrow();
    await t.db.updateTable('users').set({ password_hash: slow }).where('email', '=', ADMIN_EMAIL).execute();
    const sessionsBefore = await t.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();

    const answer = t.app.inject({ method: 'POST', url: '/api/login', payload: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    await untilHashing(100);
    const running = [...threads];
    await Promise.all(running.map((thread) => thread.terminate()));
    const refused = await answer;
    expect(refused.statusCode).toBe(503);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toEqual({ message: expect.any(String) });
    const sessionsAfter = await t.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(sessionsAfter.n)).toBe(Number(sessionsBefore.n));

    await t.db.updateTable('users').set({ password_hash: kept.password_hash }).where('email', '=', ADMIN_EMAIL).execute();
    const { response } = await login(t.app);
    expect(response.statusCode).toBe(200);
    expect(threads.length).toBeGreaterThan(running.length);
  }, 60_000);
});
