// PowerDNS answering from Berth's schema pdns (views since migration 0009; the records a table
// its triggers keep since 0050) against the same zones in
// PowerDNS's own tables (Debian's schema.pgsql.sql), in one run: the same pdns_server, the same
// settings (no caches, as Berth runs it), the same PostgreSQL, loaded by dnsperf (Debian's package
// dnsperf) with the same queries. Prints queries/s of each and their ratio against the goal 0.8.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../../server/src/db/connection.ts';
import { migrateToLatest } from '../../server/src/db/migrate.ts';
import {
  databaseTemplateValues,
  PDNS_TEMPLATE,
  preparePowerDns,
  renderTemplate,
  startPowerDns,
  type PowerDnsSettings,
} from '../../server/src/daemons/powerdns.ts';
import { demoDomainNames } from '../../server/src/modules/demo/service.ts';
import { startBenchApp } from './berth-app.ts';
import { createBenchDatabase } from './database.ts';
import { inTurn } from './load.ts';
import { freePort } from './servers.ts';

const GOAL_RATIO = 0.8;
const NATIVE_SCHEMA = '/usr/share/pdns-backend-pgsql/schema/schema.pgsql.sql';

export interface DnsThroughput {
  zones: number;
  queries: number;
  seconds: number;
  viewsQps: number;
  nativeQps: number;
  ratio: number;
}

/** dnsperf's "Queries per second" for `seconds` of load on one server. */
function dnsperf(port: number, queryFile: string, seconds: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('dnsperf', [
      '-s',
      '127.0.0.1',
      '-p',
      String(port),
      '-d',
      queryFile,
      '-l',
      String(seconds),
      '-c',
      '4',
      '-q',
      '64',
      '-t',
      '2',
    ]);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', (error) => reject(new Error(`dnsperf could not run (apt-get install dnsperf): ${error.message}`)));
    child.once('exit', (code) => {
      const qps = /Queries per second:\s+([\d.]+)/.exec(output)?.[1];
      const lost = Number(/Queries lost:\s+(\d+)/.exec(output)?.[1] ?? 0);
      if (code !== 0 || !qps) reject(new Error(`dnsperf failed (${code}):\n${output}`));
      else if (lost > 0) reject(new Error(`dnsperf lost ${lost} queries: the server did not answer them\n${output}`));
      else resolve(Number(qps));
    });
  });
}

/** Copies what PowerDNS reads from Berth's views into PowerDNS's own tables of another database. */
async function copyToNativeTables(berthUrl: string, nativeUrl: string): Promise<void> {
  const from = new pg.Client({ connectionString: berthUrl });
  const to = new pg.Client({ connectionString: nativeUrl });
  await Promise.all([from.connect(), to.connect()]);
  try {
    await to.query(readFileSync(NATIVE_SCHEMA, 'utf8'));
    const domains = await from.query<{ id: number; name: string }>('select id, name from pdns.domains');
    for (const domain of domains.rows) {
      await to.query(`insert into domains (id, name, type) values ($1, $2, 'NATIVE')`, [domain.id, domain.name]);
    }
    const records = await from.query('select domain_id, name, type, content, ttl, prio, disabled, ordername, auth from pdns.records');
    for (const r of records.rows) {
      await to.query(
        'insert into records (domain_id, name, type, content, ttl, prio, disabled, ordername, auth) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
        [r.domain_id, r.name, r.type, r.content, r.ttl, r.prio, r.disabled, r.ordername, r.auth],
      );
    }
  } finally {
    await Promise.all([from.end(), to.end()]);
  }
}

export async function measureDnsThroughput(zones = 200, seconds = 8): Promise<DnsThroughput> {
  const berth = await createBenchDatabase();
  const native = await createBenchDatabase();
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'berth-bench-qps-'));
  const handle = await openDatabase({ databaseUrl: berth.url, dataDir: '' });
  const stops: (() => void)[] = [];
  try {
    await migrateToLatest(handle.db);
    const app = await startBenchApp(handle.db, berth.url);
    const names = demoDomainNames(zones);
    const queries: string[] = [];
    try {
      for (const [i, name] of names.entries()) {
        const id = (await app.call('POST', '/api/host/domain', { name }, 201)).data.id;
        const add = (record: object) => app.call('POST', `/api/host/domain/${id}/dns`, { ttl: 3600, ...record }, 201);
        await add({ name: '@', type: 'A', content: `192.0.2.${(i % 250) + 1}` });
        await add({ name: 'www', type: 'CNAME', content: name });
        await add({ name: 'mail', type: 'A', content: `198.51.100.${(i % 250) + 1}` });
        // The MX, SPF and DMARC records come with the new zone (server/src/modules/dns/default-zone.ts).
        queries.push(`${name} A`, `www.${name} A`, `${name} MX`, `${name} TXT`, `mail.${name} A`, `nothing.${name} A`);
      }
    } finally {
      await app.close();
    }
    await copyToNativeTables(berth.url, native.url);
    // Statistics as autovacuum would have them on a running system, on both sides alike.
    for (const url of [berth.url, native.url]) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query('analyze');
      await client.end();
    }
    const queryFile = path.join(runDir, 'queries.txt');
    writeFileSync(queryFile, `${queries.join('\n')}\n`);

    const viewsSettings: PowerDnsSettings = {
      databaseUrl: berth.url,
      address: '127.0.0.1',
      port: await freePort(),
      runDir: path.join(runDir, 'views'),
    };
    await preparePowerDns(handle.db, viewsSettings);
    // The same configuration, but PowerDNS's own tables in schema public, read by the owner.
    const nativeSettings: PowerDnsSettings = {
      databaseUrl: native.url,
      address: '127.0.0.1',
      port: await freePort(),
      runDir: path.join(runDir, 'native'),
    };
    mkdirSync(nativeSettings.runDir, { recursive: true, mode: 0o700 });
    const nativeUser = new URL(native.url).username || 'postgres';
    const nativeConf = renderTemplate(readFileSync(PDNS_TEMPLATE, 'utf8'), {
      ...databaseTemplateValues(native.url, nativeUser, decodeURIComponent(new URL(native.url).password)),
      address: nativeSettings.address,
      port: nativeSettings.port,
      run_dir: nativeSettings.runDir,
    }).replace('search_path=pdns', 'search_path=public');
    writeFileSync(path.join(nativeSettings.runDir, 'pdns.conf'), nativeConf, { mode: 0o600 });

    const viewsDns = await startPowerDns(viewsSettings);
    stops.push(() => viewsDns.kill('SIGKILL'));
    const nativeDns = await startPowerDns(nativeSettings);
    stops.push(() => nativeDns.kill('SIGKILL'));

    // Warm both, then alternate (load.ts inTurn) so that drift of a noisy machine falls on both
    // alike; best of three.
    await dnsperf(viewsSettings.port, queryFile, 2);
    await dnsperf(nativeSettings.port, queryFile, 2);
    const views: number[] = [];
    const nativeRuns: number[] = [];
    for (let round = 0; round < 3; round++) {
      await inTurn(round, [
        async () => views.push(await dnsperf(viewsSettings.port, queryFile, seconds)),
        async () => nativeRuns.push(await dnsperf(nativeSettings.port, queryFile, seconds)),
      ]);
    }
    const viewsQps = Math.max(...views);
    const nativeQps = Math.max(...nativeRuns);
    return { zones, queries: queries.length, seconds, viewsQps, nativeQps, ratio: viewsQps / nativeQps };
  } finally {
    for (const stop of stops) stop();
    await handle.close();
    await berth.drop();
    await native.drop();
    rmSync(runDir, { recursive: true, force: true });
  }
}

export function formatDnsThroughput(result: DnsThroughput): string {
  const verdict = result.ratio >= GOAL_RATIO ? 'ABOVE GOAL' : 'BELOW GOAL';
  return [
    `PowerDNS queries/s, Berth's views vs PowerDNS's own tables (${result.zones} zones, ${result.queries} names, dnsperf ${result.seconds} s, best of 3 alternating runs)`,
    `  views ${result.viewsQps.toFixed(0)} q/s, native tables ${result.nativeQps.toFixed(0)} q/s: ratio ${result.ratio.toFixed(2)} (goal >= ${GOAL_RATIO}) ${verdict}`,
  ].join('\n');
}

// `node bench/src/dns-throughput.ts` runs this figure alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatDnsThroughput(await measureDnsThroughput()));
}
