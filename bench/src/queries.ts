// Queries per request, counted in-process: Berth's app built on the bench database with a query
// counter (server/src/db/connection.ts `onQuery`), asked through inject so nothing else runs.
import { pino } from 'pino';
import { buildApp } from '../../server/src/app.ts';
import { benchAppConfig } from './database.ts';
import { openDatabase } from '../../server/src/db/connection.ts';

export async function queriesPerRequest(
  databaseUrl: string,
  login: { email: string; password: string },
  paths: string[],
  requests = 100,
): Promise<Map<string, number>> {
  let statements = 0;
  const handle = await openDatabase({ databaseUrl, dataDir: '', onQuery: () => void (statements += 1) });
  const config = benchAppConfig(databaseUrl);
  const { app } = await buildApp({ config, db: handle.db, logger: pino({ level: 'silent' }), webDistDir: '/nonexistent' });
  try {
    const answer = await app.inject({ method: 'POST', url: '/api/login', payload: { ...login, remember: true } });
    const cookie = answer.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    if (answer.statusCode !== 200) throw new Error(`login answered ${answer.statusCode}`);
    const counts = new Map<string, number>();
    for (const path of paths) {
      // The first request fills the tenant cache, as on a running server.
      await app.inject({ url: path, headers: { cookie } });
      statements = 0;
      for (let i = 0; i < requests; i++) {
        const probe = await app.inject({ url: path, headers: { cookie } });
        if (probe.statusCode !== 200) throw new Error(`GET ${path} answered ${probe.statusCode}`);
      }
      counts.set(path, statements / requests);
    }
    return counts;
  } finally {
    await app.close();
    await handle.close();
  }
}
