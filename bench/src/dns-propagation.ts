// From an API write to the DNS answer: Berth's app (in-process, on a fresh PostgreSQL database)
// changes an A record 200 times through PATCH /api/host/domain/{id}/dns/{recordId}; after each,
// PowerDNS (Debian's, reading the database, server/src/daemons/powerdns.ts) is asked until it
// answers the new address. Prints p50/p99 against the goal p99 < 1 s.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/src/db/connection.ts';
import { migrateToLatest } from '../../server/src/db/migrate.ts';
import { preparePowerDns, resolverFor, startPowerDns } from '../../server/src/daemons/powerdns.ts';
import { startBenchApp } from './berth-app.ts';
import { createBenchDatabase } from './database.ts';
import { freePort } from './servers.ts';

export interface Propagation {
  changes: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const GOAL_P99_MS = 1_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

export async function measureDnsPropagation(changes = 200): Promise<Propagation> {
  const database = await createBenchDatabase();
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'berth-bench-pdns-'));
  const handle = await openDatabase({ databaseUrl: database.url, dataDir: '' });
  let stopDns = () => {};
  let closeApp = async () => {};
  try {
    await migrateToLatest(handle.db);
    const app = await startBenchApp(handle.db, database.url);
    closeApp = () => app.close();
    const domainId = (await app.call('POST', '/api/host/domain', { name: 'propagation.example' }, 201)).data.id;
    const recordId = (await app.call('POST', `/api/host/domain/${domainId}/dns`, { name: 'www', type: 'A', content: '192.0.2.1' }, 201))
      .data.id;

    const settings = { databaseUrl: database.url, address: '127.0.0.1', port: await freePort(), runDir };
    await preparePowerDns(handle.db, settings);
    const pdns = await startPowerDns(settings);
    stopDns = () => pdns.kill('SIGKILL');
    const resolver = resolverFor(settings.address, settings.port);

    const times: number[] = [];
    for (let i = 0; i < changes; i++) {
      const address = `198.51.100.${(i % 250) + 1}`;
      const started = performance.now();
      await app.call('PATCH', `/api/host/domain/${domainId}/dns/${recordId}`, { content: address }, 200);
      for (;;) {
        const answer: string[] = await resolver.resolve4('www.propagation.example').catch(() => []);
        if (answer.includes(address)) break;
        if (performance.now() - started > 10_000) throw new Error(`no answer ${address} within 10 s`);
      }
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return { changes, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), maxMs: times[times.length - 1] ?? 0 };
  } finally {
    stopDns();
    await closeApp();
    await handle.close();
    await database.drop();
    rmSync(runDir, { recursive: true, force: true });
  }
}

export function formatPropagation(result: Propagation): string {
  const verdict = result.p99Ms < GOAL_P99_MS ? 'ABOVE GOAL' : 'BELOW GOAL';
  return [
    `DNS propagation, API write to PowerDNS answer (${result.changes} changes of one A record)`,
    `  p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms (goal p99 < ${GOAL_P99_MS} ms) ${verdict}; max ${result.maxMs.toFixed(1)} ms`,
  ].join('\n');
}
