// `npm run bench`: Berth's authenticated GET /api/user against a bare Fastify hello world and
// against Fastify doing one pooled select, the queries per request, how soon a session ended on one
// instance is refused by another, logins/s against raw argon2id verifies/s, and Lighthouse on
// /login, /dashboard and /host/domain, the domains page at 100,000 domains (bench/src/domains.ts). Prints each figure with its goal and ABOVE/BELOW; a miss is
// reported, not an exit code.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import os from 'node:os';
import { createBenchDatabase } from './database.ts';
import { best, inTurn, measureLoad, type LoadResult } from './load.ts';
import { formatLogins, loginComparisons, loginSettings, measureLogins } from './logins.ts';
import { formatComparison, ratioOf, verdict, type Comparison } from './report.ts';
import { formatPropagation, measureDnsPropagation } from './dns-propagation.ts';
import { measureDomainsPage } from './domains.ts';
import { formatDnsThroughput, measureDnsThroughput } from './dns-throughput.ts';
import { formatWebsites, measureWebsites } from './websites.ts';
import { formatMailSigning, measureMailSigning } from './mail-signing.ts';
import { formatMailDelivery, measureMailDelivery } from './mail-delivery.ts';
import { formatCertificates, measureCertificates } from './certificates.ts';
import { auditPages, formatPages, logInOnHost } from './pages.ts';
import { queriesPerRequest } from './queries.ts';
import { formatRevocation, measureRevocation } from './revocation.ts';
import { repoRoot, startBaseline, startBerth, startPoolBaseline, type RunningServer } from './servers.ts';

const positiveInteger = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};

const settings = {
  connections: positiveInteger('BENCH_CONNECTIONS', 50),
  durationSeconds: positiveInteger('BENCH_DURATION', 10),
  // Berth's code needs longer than a hello world to reach steady state (JIT, prepared plans): both
  // sides get the same warm-up.
  warmupSeconds: 6,
  /** Turns of Berth and the pooled select; the best of each counts. */
  rounds: 3,
  /** The domains page's size here (`node bench/src/domains.ts` alone: 1,000,000). */
  domains: positiveInteger('BENCH_DOMAINS', 100_000),
  /** Sites on one web server (bench/src/websites.ts). */
  sites: positiveInteger('BENCH_SITES', 10_000),
  goals: { userVsPool: 0.6, queriesPerRequest: 1 },
  demo: { host: 'harbor.localhost', password: 'demo-password-0123456789' },
  // The logins' figure signs in as this admin, with the server's argon2 parameters (bench/src/logins.ts).
  argon2: loginSettings.argon2,
  admin: loginSettings.admin,
  /** Hard stop, in case something hangs: the run is meant to take about ten minutes. */
  watchdogSeconds: 1_500,
};

const cleanups: (() => Promise<void>)[] = [];
let cleaning: Promise<void> | undefined;
const cleanUp = () =>
  (cleaning ??= (async () => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        process.stderr.write(`cleanup failed: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
  })());

const abort = (reason: string) => {
  process.stderr.write(`\nbench: ${reason}; cleaning up\n`);
  void cleanUp().finally(() => process.exit(1));
};
process.once('SIGINT', () => abort('interrupted'));
process.once('SIGTERM', () => abort('terminated'));
setTimeout(() => abort(`still running after ${settings.watchdogSeconds} s`), settings.watchdogSeconds * 1000).unref();

const log = (text: string) => process.stdout.write(`${text}\n`);

/** The share (0..1) of all CPUs' time spent on anything but idling during the next `ms`. */
async function busyShareOfCpu(ms: number): Promise<number> {
  const total = () =>
    os
      .cpus()
      .reduce((sum, cpu) => ({ idle: sum.idle + cpu.times.idle, all: sum.all + Object.values(cpu.times).reduce((a, b) => a + b, 0) }), {
        idle: 0,
        all: 0,
      });
  const before = total();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = total();
  const all = after.all - before.all;
  return all > 0 ? 1 - (after.idle - before.idle) / all : 0;
}

async function logIn(berth: RunningServer): Promise<string> {
  const answer = await fetch(`${berth.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...settings.admin, remember: true }),
  });
  const cookie = answer.headers.getSetCookie().find((value) => value.startsWith('berth_session='));
  if (answer.status !== 200 || !cookie) throw new Error(`login answered ${answer.status}: ${await answer.text()}`);
  return cookie.split(';')[0] ?? '';
}

async function main(): Promise<void> {
  const started = performance.now();
  // Other work on the machine takes CPU from one measurement and not the other: say so.
  const busyBefore = await busyShareOfCpu(1_000);
  const load = { connections: settings.connections, durationSeconds: settings.durationSeconds, warmupSeconds: settings.warmupSeconds };

  const database = await createBenchDatabase();
  cleanups.push(() => database.drop());
  log(`bench database: ${new URL(database.url).pathname.slice(1)}`);

  const berth = await startBerth({
    databaseUrl: database.url,
    adminEmail: settings.admin.email,
    adminPassword: settings.admin.password,
    argon2MemoryKib: settings.argon2.memoryCost,
    argon2TimeCost: settings.argon2.timeCost,
  });
  cleanups.push(() => berth.stop());
  const baseline = await startBaseline();
  cleanups.push(() => baseline.stop());

  const cookie = await logIn(berth);
  const probe = await fetch(`${berth.url}/api/user`, { headers: { cookie } });
  if (probe.status !== 200) throw new Error(`GET /api/user with the session answered ${probe.status}`);

  log(`Fastify hello world: ${load.connections} connections, ${load.warmupSeconds} s warm-up + ${load.durationSeconds} s ...`);
  const hello = await measureLoad({ ...load, url: `${baseline.url}/` });
  await baseline.stop();
  const pool = await startPoolBaseline(database.url);
  cleanups.push(() => pool.stop());
  // Other work on this machine only ever slows a run down: Berth and the pooled select take turns
  // (load.ts inTurn), and the best run of each counts (each side warmed up before its first run).
  log(`GET /api/user and Fastify + one pooled select by primary key, in turn, best of ${settings.rounds} ...`);
  const userRuns: LoadResult[] = [];
  const pooledRuns: LoadResult[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    const warmupSeconds = round === 0 ? load.warmupSeconds : 0;
    await inTurn(round, [
      async () => userRuns.push(await measureLoad({ ...load, warmupSeconds, url: `${berth.url}/api/user`, headers: { cookie } })),
      async () => pooledRuns.push(await measureLoad({ ...load, warmupSeconds, url: `${pool.url}/` })),
    ]);
  }
  const runsOf = (runs: LoadResult[]) => runs.map((run) => run.requestsPerSecond.toFixed(0)).join(', ');
  log(`  req/s of each run: Berth ${runsOf(userRuns)}; pooled select ${runsOf(pooledRuns)}`);
  const user = best(userRuns);
  const pooled = best(pooledRuns);
  await pool.stop();

  log('queries per request (in-process, counted) ...');
  const queryCounts = await queriesPerRequest(database.url, settings.admin, ['/api/user']);
  // The sessions answered from memory must still end at once everywhere (issue: fast pages).
  log('session revocation across two instances ...');
  const revocation = await measureRevocation(database.url, settings.admin);

  const loginFigures = await measureLogins(
    berth,
    database.url,
    { durationSeconds: settings.durationSeconds, warmupSeconds: settings.warmupSeconds, rounds: settings.rounds },
    log,
  );

  log('Lighthouse on /login, /dashboard, /host/domain (demo data) ...');
  await promisify(execFile)(process.execPath, ['server/src/cli.ts', 'demo', '--password', settings.demo.password], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: database.url },
  });
  const port = new URL(berth.url).port;
  const demoCookie = await logInOnHost(berth.url, `${settings.demo.host}:${port}`, `admin@${settings.demo.host}`, settings.demo.password);
  // Chromium resolves every *.localhost name to the loopback address by itself.
  const pages = await auditPages(`http://${settings.demo.host}:${port}`, demoCookie);
  await berth.stop();
  log(`the domains page at ${settings.domains.toLocaleString('en-US')} domains, over HTTP ...`);
  const domainsPage = await measureDomainsPage(settings.domains);
  log('DNS propagation: 200 changes, each asked of PowerDNS until answered ...');
  const propagation = await measureDnsPropagation();
  log("PowerDNS queries/s: Berth's views vs PowerDNS's own tables, dnsperf ...");
  const dnsThroughput = await measureDnsThroughput();
  log(`websites: nginx, PHP-FPM and the web agent, ${settings.sites.toLocaleString('en-US')} sites ...`);
  const websites = await measureWebsites({ sites: settings.sites, log });
  log('mail: submission, DKIM signing by rspamd and relay, against Postfix alone ...');
  const mail = await measureMailSigning({ log });
  log("mail: delivery from port 25 into mailboxes, Berth's lookups against static tables ...");
  const delivery = await measureMailDelivery({ log });
  log('certificates: a domain created to HTTPS with its certificate from Pebble ...');
  const certificates = await measureCertificates({ log });

  const userComparison: Comparison = {
    title: `Authenticated GET /api/user vs bare Fastify (${load.connections} connections, ${load.durationSeconds} s)`,
    subject: { label: 'Berth GET /api/user', result: user },
    baseline: { label: 'Fastify hello world', result: hello },
  };
  const poolComparison: Comparison = {
    title: `Authenticated GET /api/user vs Fastify doing one pooled select by primary key (${load.connections} connections, ${load.durationSeconds} s)`,
    subject: { label: 'Berth GET /api/user', result: user },
    baseline: { label: 'Fastify + pg select', result: pooled },
    goal: settings.goals.userVsPool,
  };
  const logins = loginComparisons(loginFigures);

  log('');
  log(
    `Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), PostgreSQL at ${new URL(database.url).host}`,
  );
  if (busyBefore > 0.2) {
    log(`WARNING: ${(busyBefore * 100).toFixed(0)}% of the CPU was busy with other work just before the run; the numbers are noisy.`);
  }
  for (const comparison of [userComparison, poolComparison]) log(`\n${formatComparison(comparison)}`);
  log('');
  for (const line of formatLogins(loginFigures)) log(line);
  log('');
  for (const [path, count] of queryCounts) {
    const ok = count <= settings.goals.queriesPerRequest;
    log(
      `queries per GET ${path} (plain session): ${count.toFixed(2)} (goal <= ${settings.goals.queriesPerRequest}) ${ok ? 'ABOVE GOAL' : 'BELOW GOAL'}`,
    );
  }
  log(formatRevocation(revocation));
  log(`\n${formatPages(pages)}`);
  log('');
  for (const line of domainsPage) log(line);
  log(`\n${formatPropagation(propagation)}`);
  log(`\n${formatDnsThroughput(dnsThroughput)}`);
  log(`\n${formatWebsites(websites)}`);
  log(`\n${formatMailSigning(mail)}`);
  log(`\n${formatMailDelivery(delivery)}`);
  log(`\n${formatCertificates(certificates)}`);
  const failed = [...userRuns, hello, ...pooledRuns].some((result) => result.failures > 0) || loginFigures.failures > 0;
  if (failed) log('\nWARNING: some requests failed (non-2xx, errors or timeouts); the numbers above undercount.');
  log('');
  const summary = (comparison: Comparison) =>
    `${ratioOf(comparison).toFixed(2)}${comparison.goal === undefined ? ' (reference)' : ` ${verdict(ratioOf(comparison), comparison.goal)}`}`;
  log(
    `summary: api/user ratio ${summary(userComparison)}; vs pooled select ${summary(poolComparison)}; login ratio ${summary(logins.login)} ` +
      `(the verify over HTTP ${summary(logins.overHttp)}, logins vs it ${summary(logins.beside)}; ` +
      `Berth's password step vs the verify over HTTP ${summary(logins.statements)}, logins vs that step ${summary(logins.requestPath)}); ` +
      `took ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}

try {
  await main();
} catch (error) {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
