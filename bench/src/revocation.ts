// How soon a session ended on one instance is refused by another that keeps it in memory
// (server/src/modules/sessions/cache.ts): two instances of the app on the bench database, in-process,
// on the real clock. Each turn: sign in on A, make B keep the session, log out on A, then ask B
// until it answers 401. What B still answers after A's logout answered is the window measured.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { pino } from 'pino';
import { buildApp } from '../../server/src/app.ts';
import { benchAppConfig } from './database.ts';
import { openDatabase } from '../../server/src/db/connection.ts';

export interface RevocationResult {
  turns: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Turns in which B's very first request after the logout already answered 401. */
  refusedAtOnce: number;
}

async function instance(databaseUrl: string) {
  const handle = await openDatabase({ databaseUrl, dataDir: '' });
  const config = benchAppConfig(databaseUrl);
  const { app } = await buildApp({ config, db: handle.db, logger: pino({ level: 'silent' }), webDistDir: '/nonexistent' });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await handle.close();
    },
  };
}

export async function measureRevocation(
  databaseUrl: string,
  login: { email: string; password: string },
  turns = 50,
): Promise<RevocationResult> {
  const a = await instance(databaseUrl);
  const b = await instance(databaseUrl);
  try {
    const delays: number[] = [];
    let refusedAtOnce = 0;
    for (let turn = 0; turn < turns; turn++) {
      const answer = await a.app.inject({ method: 'POST', url: '/api/login', payload: { ...login, remember: true } });
      if (answer.statusCode !== 200) throw new Error(`login answered ${answer.statusCode}`);
      const cookie = answer.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
      for (let i = 0; i < 2; i++) {
        const kept = await b.app.inject({ url: '/api/user', headers: { cookie } });
        if (kept.statusCode !== 200) throw new Error(`GET /api/user on the second instance answered ${kept.statusCode}`);
      }
      const logout = await a.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
      if (logout.statusCode >= 300) throw new Error(`logout answered ${logout.statusCode}`);
      const loggedOut = performance.now();
      let asks = 0;
      for (;;) {
        // A client's request reaches B through its socket, so B's event loop reads what else has
        // arrived (the database's announcement) before it; in-process requests answered from
        // memory would never let it, and B would keep the session until the cache's TTL.
        await nextTurn();
        asks += 1;
        const status = (await b.app.inject({ url: '/api/user', headers: { cookie } })).statusCode;
        if (status === 401) break;
        if (performance.now() - loggedOut > 10_000) throw new Error('the second instance still accepts the session after 10 s');
      }
      if (asks === 1) refusedAtOnce += 1;
      delays.push(performance.now() - loggedOut);
    }
    delays.sort((x, y) => x - y);
    const at = (share: number) => delays[Math.min(delays.length - 1, Math.ceil(share * delays.length) - 1)] ?? 0;
    return { turns, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: delays.at(-1) ?? 0, refusedAtOnce };
  } finally {
    await b.close();
    await a.close();
  }
}

export const formatRevocation = (result: RevocationResult): string =>
  `Session ended on one instance, refused by another that kept it (${result.turns} turns): ` +
  `p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, max ${result.maxMs.toFixed(2)} ms after the logout answered; ` +
  `refused on the first request after it in ${result.refusedAtOnce} of ${result.turns} turns`;
