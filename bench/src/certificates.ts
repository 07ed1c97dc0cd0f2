// Certificates (issue 32): Berth's app in-process with its certificate pass as main.ts runs it
// (woken by the database, migration 0047), PowerDNS serving the zones, Debian's Pebble with
// validation on asking that PowerDNS for the DNS-01 answers, the web agent and nginx serving the
// certificates. BENCH_CERT_DOMAINS (20) domains created one after another through the API, each
// timed from its creation until nginx answers a TLS handshake for its name with a certificate that
// Pebble's root vouches for. Goal: p99 < 10 s.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'node:tls';
import { openDatabase } from '../../server/src/db/connection.ts';
import { migrateToLatest } from '../../server/src/db/migrate.ts';
import { preparePowerDns, startPowerDns } from '../../server/src/daemons/powerdns.ts';
import { prepareWeb, type WebSettings } from '../../server/src/daemons/web.ts';
import { CERTIFICATE_KEYS_PURPOSE } from '../../server/src/modules/certificates/keys.ts';
import { startCertificateJob } from '../../server/src/modules/certificates/service.ts';
import { freePort } from '../../server/test/faults/processes.ts';
import { startDnsWorld } from '../../server/test/dns-world.ts';
import { startPebble } from '../../server/test/pebble.ts';
import { startBenchApp } from './berth-app.ts';
import { createBenchDatabase } from './database.ts';

const GOAL_P99_MS = 10_000;

export interface CertificateFigures {
  domains: number;
  /** Each domain's time from created to a verified HTTPS handshake, ms, sorted. */
  times: number[];
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Whether nginx answers a handshake for `name` with a certificate that `ca` vouches for. */
function verified(port: number, name: string, ca: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, servername: name, ca, rejectUnauthorized: false }, () => {
      resolve(socket.authorized);
      socket.destroy();
    });
    socket.on('error', () => resolve(false));
  });
}

export async function measureCertificates(options: { log?: (line: string) => void } = {}): Promise<CertificateFigures> {
  const log = options.log ?? (() => {});
  const count = Number(process.env.BENCH_CERT_DOMAINS ?? 20);
  const dir = mkdtempSync(path.join(tmpdir(), 'berth-bench-acme-'));
  chmodSync(dir, 0o755);
  const database = await createBenchDatabase();
  const handle = await openDatabase({ databaseUrl: database.url, dataDir: '' });
  const children: ChildProcess[] = [];
  const stops: (() => Promise<void> | void)[] = [];
  try {
    await migrateToLatest(handle.db);
    const dnsPort = await freePort();
    const httpPort = await freePort();
    const pebble = await startPebble(dir, { dnsServer: `127.0.0.1:${dnsPort}`, httpPort });
    stops.push(() => pebble.stop());
    const world = await startDnsWorld();
    stops.push(() => world.close());
    const app = await startBenchApp(handle.db, database.url, {
      ACME_DIRECTORY_URL: pebble.directoryUrl,
      ACME_CA_FILE: pebble.caFile,
      ACME_EMAIL: 'hostmaster@berth.test',
      DNS_RESOLVERS: world.address,
    });
    stops.push(() => app.close());
    const dns = { databaseUrl: database.url, address: '127.0.0.1', port: dnsPort, runDir: path.join(dir, 'pdns') };
    await preparePowerDns(handle.db, dns);
    children.push(await startPowerDns(dns));
    const web: WebSettings = {
      databaseUrl: database.url,
      serverName: 'web1',
      address: '127.0.0.1',
      httpPort,
      httpsPort: await freePort(),
      runDir: path.join(dir, 'web'),
      webRoot: path.join(dir, 'www'),
      userPrefix: `bb${Math.random().toString(36).slice(2, 8).replace(/[0-9]/g, 'x')}`,
      ftpPort: await freePort(),
      passivePorts: [0, 0],
      certificateKeys: app.secrets.derive(CERTIFICATE_KEYS_PURPOSE).exportKeys(),
    };
    const { settingsFile } = await prepareWeb(handle.db, web);
    children.push(
      spawn(process.execPath, [path.resolve(import.meta.dirname, '../../agent/src/main.ts'), settingsFile], { stdio: 'ignore' }),
    );
    const conf = path.join(web.runDir, 'nginx.conf');
    for (let i = 0; i < 300 && !existsSync(conf); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    children.push(spawn('nginx', ['-c', conf, '-g', 'daemon off;'], { stdio: 'ignore' }));
    // The pass as main.ts runs it, woken by the database; on its own only once an hour here.
    const job = startCertificateJob(app.services.certificates, app.log, {
      everyMs: 3_600_000,
      firstAfterMs: 3_600_000,
      databaseUrl: database.url,
    });
    stops.push(() => job.stop());
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const root = await pebble.root();

    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const name = `bench-cert-${i}.example`;
      const started = performance.now();
      await app.call('POST', '/api/host/domain', { name }, 201);
      while (!(await verified(web.httpsPort, name, root))) {
        if (performance.now() - started > 120_000) throw new Error(`${name} had no valid certificate after 2 minutes`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      times.push(performance.now() - started);
      log(`  ${name}: ${Math.round(times.at(-1)!)} ms`);
    }
    return { domains: count, times: times.sort((a, b) => a - b) };
  } finally {
    for (const stop of stops.reverse()) await Promise.resolve(stop()).catch(() => undefined);
    for (const child of children) child.kill(child.spawnfile === 'nginx' ? 'SIGQUIT' : 'SIGTERM');
    await handle.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatCertificates(figures: CertificateFigures): string {
  const p50 = percentile(figures.times, 50);
  const p99 = percentile(figures.times, 99);
  return [
    `Certificates: a domain created to HTTPS with its own certificate (${figures.domains} domains, Pebble with validation on, DNS-01 through PowerDNS):`,
    `  p50 ${Math.round(p50)} ms, p99 ${Math.round(p99)} ms (goal p99 < ${GOAL_P99_MS} ms): ${p99 < GOAL_P99_MS ? 'ABOVE GOAL' : 'BELOW GOAL'}`,
  ].join('\n');
}

// `node bench/src/certificates.ts` alone.
if (import.meta.main) {
  const figures = await measureCertificates({ log: (line) => process.stdout.write(`${line}\n`) });
  process.stdout.write(`${formatCertificates(figures)}\n`);
}
