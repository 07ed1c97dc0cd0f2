// Websites (issue 31): Berth's app in-process on a fresh PostgreSQL database, the web agent
// (agent/src/main.ts) as a process of its own, Debian's nginx and PHP-FPM 8.2 started as
// `npm run services` starts them (server/src/daemons/web.ts).
//
// 1. Panel change to site answer: the document root of one site switched between two folders 100
//    times through PATCH /api/host/domain/{id}; after each, nginx is asked until it serves the new
//    folder. p50/p99 (goal p99 < 1 s).
// 2. Static file requests/s through the generated server block against a minimal hand-written one
//    on the same nginx serving the same file, taking turns, best of 5 each (goal >= 0.95).
// 3. PHP hello world through the customer's pool against a plain pool of the same FPM with the
//    same process settings and a hand-written server block, the same way (goal >= 0.95).
// 4. 10,000 sites on one server (BENCH_SITES): a full apply from an empty directory (goal < 60 s),
//    then one change applied (goal < 2 s), and nginx's memory with them all (master and workers).
// 5. TLS handshakes/s with the site's own certificate as Berth serves it (picked by SNI and kept
//    parsed by nginx's Lua module, agent/src/nginx.ts) against the same certificate given statically in a hand-written
//    server block on the same nginx: full handshakes (no session reuse), 20 at a time, 5 s, in
//    turn, best of 5 (goal >= 0.95).
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:tls';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../server/src/db/connection.ts';
import { migrateToLatest } from '../../server/src/db/migrate.ts';
import { prepareWeb, webPrograms, type WebSettings } from '../../server/src/daemons/web.ts';
import { startBenchApp } from './berth-app.ts';
import { CERTIFICATE_KEYS_PURPOSE } from '../../server/src/modules/certificates/keys.ts';
import { ownChain } from '../../server/test/own-certificate.ts';
import { createBenchDatabase } from './database.ts';
import { best, inTurn, measureLoad, type LoadResult } from './load.ts';
import { repoRoot } from './servers.ts';
import { freePort } from './servers.ts';

/** Rounds of each load, in turn (this machine is noisy: the best of each is compared). */
const ROUNDS = 5;

export interface WebsiteFigures {
  propagation: { changes: number; p50Ms: number; p99Ms: number };
  staticRatio: { site: LoadResult; baseline: LoadResult };
  phpRatio: { site: LoadResult; baseline: LoadResult };
  /** Full TLS handshakes per second. */
  handshakes: { site: number; baseline: number };
  scale: { sites: number; fullApplyMs: number; oneChangeMs: number; nginxMemoryMb: number };
}

const GOALS = { propagationP99Ms: 1_000, staticRatio: 0.95, phpRatio: 0.95, handshakeRatio: 0.95, fullApplyMs: 60_000, oneChangeMs: 2_000 };

/** Full TLS handshakes a second against `port` asking for `name`: `connections` at a time for `seconds`. */
async function handshakesPerSecond(port: number, name: string, connections: number, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      // No session given: every connection is a full handshake, as a new visitor's.
      const socket = connect({ host: '127.0.0.1', port, servername: name, rejectUnauthorized: false }, () => {
        done++;
        socket.destroy();
        resolve();
      });
      socket.once('error', reject);
    });
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) await one();
    }),
  );
  return done / seconds;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

function get(port: number, host: string, pathname = '/'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathname, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function until(check: () => Promise<boolean>, limitMs: number, what: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check().catch(() => false)) return performance.now() - started;
    if (performance.now() - started > limitMs) throw new Error(`${what} not within ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Resident memory of nginx's master and workers (from /proc), in MB. */
function nginxMemoryMb(masterPid: number): number {
  let kb = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      if (Number(pid) !== masterPid && ppid !== masterPid) continue;
      kb += Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kb / 1024;
}

export async function measureWebsites(
  options: { sites?: number; changes?: number; log?: (line: string) => void } = {},
): Promise<WebsiteFigures> {
  const log = options.log ?? (() => {});
  const changes = options.changes ?? 100;
  const sites = options.sites ?? Number(process.env.BENCH_SITES ?? 10_000);
  const database = await createBenchDatabase();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'berth-bench-web-'));
  chmodSync(dir, 0o755);
  const handle = await openDatabase({ databaseUrl: database.url, dataDir: '' });
  const children: ChildProcess[] = [];
  const prefix = `bw${Math.random().toString(36).slice(2, 7).replace(/[0-9]/g, 'x')}`;
  let closeApp = async () => {};
  try {
    await migrateToLatest(handle.db);
    const app = await startBenchApp(handle.db, database.url);
    closeApp = () => app.close();
    const settings: WebSettings = {
      databaseUrl: database.url,
      serverName: 'web1',
      address: '127.0.0.1',
      httpPort: await freePort(),
      httpsPort: await freePort(),
      runDir: path.join(dir, 'run'),
      webRoot: path.join(dir, 'www'),
      userPrefix: prefix,
      ftpPort: await freePort(),
      passivePorts: [40000, 40009],
    };
    // The agent opens the certificate keys the app seals (the key derived for them, as npm run services gives it).
    settings.certificateKeys = app.secrets.derive(CERTIFICATE_KEYS_PURPOSE).exportKeys();
    const { settingsFile } = await prepareWeb(handle.db, settings);
    const startAgent = () => {
      const child = spawn(process.execPath, [path.join(repoRoot, 'agent/src/main.ts'), settingsFile], {
        stdio: process.env.BENCH_AGENT_LOG ? 'inherit' : 'ignore',
      });
      children.push(child);
      return child;
    };
    let agent = startAgent();
    const programs = webPrograms(settings);
    for (const name of ['nginx', 'php8.2-fpm']) {
      const program = programs.find((candidate) => candidate.name === name);
      if (!program) throw new Error(`${name} is not installed`);
      children.push(spawn(program.command, program.args, { stdio: 'ignore' }));
      await until(() => program.ready(), 15_000, `${name} ready`);
    }

    // 1. Propagation.
    const site = (await app.call('POST', '/api/host/domain', { name: 'bench-site.example' }, 201)).data.id;
    const owner = (await handle.db.selectFrom('domains').select('owner_id').where('id', '=', site).executeTakeFirstOrThrow()).owner_id;
    const home = path.join(settings.webRoot, String(owner), 'bench-site.example');
    await until(async () => (await get(settings.httpPort, 'bench-site.example')).status === 200, 10_000, 'the first site');
    for (const folder of ['a', 'b']) {
      mkdirSync(path.join(home, folder), { recursive: true });
      writeFileSync(path.join(home, folder, 'index.html'), folder);
    }
    log(`  website propagation: ${changes} changes of the document root ...`);
    const times: number[] = [];
    for (let i = 0; i < changes; i++) {
      const folder = i % 2 === 0 ? 'a' : 'b';
      const started = performance.now();
      await app.call('PATCH', `/api/host/domain/${site}`, { settings: { document_root: folder } }, 200);
      await until(async () => (await get(settings.httpPort, 'bench-site.example')).body === folder, 10_000, `folder ${folder}`);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const propagation = { changes, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) };

    // 2 and 3. Generated against hand-written, on the same nginx and FPM.
    await app.call('PATCH', `/api/host/domain/${site}`, { settings: { document_root: 'public_html', php_version: '8.2' } }, 200);
    const root = path.join(home, 'public_html');
    writeFileSync(path.join(root, 'static.txt'), 'x'.repeat(1024));
    writeFileSync(path.join(root, 'hello.php'), '<?php echo "hello";');
    await until(async () => (await get(settings.httpPort, 'bench-site.example', '/hello.php')).body === 'hello', 10_000, 'PHP');
    const baselinePort = await freePort();
    const phpDir = path.join(settings.runDir, 'php8.2');
    // A plain pool with the customer pool's process settings, beside it in the same FPM.
    writeFileSync(
      path.join(phpDir, 'pools', 'baseline.conf'),
      `[baseline]\nuser = www-data\ngroup = www-data\nlisten = ${phpDir}/baseline.sock\nlisten.owner = www-data\nlisten.group = www-data\nlisten.mode = 0660\npm = ondemand\npm.max_children = 5\npm.process_idle_timeout = 30s\npm.max_requests = 500\n`,
    );
    // The operator's own server blocks (conf.d): the agent's passes leave them alone.
    writeFileSync(
      path.join(settings.runDir, 'conf.d', 'baseline.conf'),
      `server {\n  listen 127.0.0.1:${baselinePort};\n  root ${root};\n  location ~ \\.php$ {\n    include /etc/nginx/fastcgi_params;\n    fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;\n    fastcgi_pass unix:${phpDir}/baseline.sock;\n  }\n}\n`,
    );
    process.kill(Number(readFileSync(path.join(phpDir, 'php-fpm.pid'), 'utf8')), 'SIGUSR2');
    process.kill(Number(readFileSync(path.join(settings.runDir, 'nginx.pid'), 'utf8')), 'SIGHUP');
    await until(async () => (await get(baselinePort, 'baseline', '/hello.php')).body === 'hello', 10_000, 'the baseline');

    const turns = async (sitePath: string) => {
      const siteRuns: LoadResult[] = [];
      const baseRuns: LoadResult[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const warmupSeconds = round === 0 ? 2 : 0;
        await inTurn(round, [
          async () =>
            siteRuns.push(
              await measureLoad({
                url: `http://127.0.0.1:${settings.httpPort}${sitePath}`,
                headers: { host: 'bench-site.example' },
                connections: 20,
                durationSeconds: 5,
                warmupSeconds,
              }),
            ),
          async () =>
            baseRuns.push(
              await measureLoad({ url: `http://127.0.0.1:${baselinePort}${sitePath}`, connections: 20, durationSeconds: 5, warmupSeconds }),
            ),
        ]);
      }
      return { site: best(siteRuns), baseline: best(baseRuns) };
    };
    log(`  static file and PHP hello world: generated against hand-written, in turn, best of ${ROUNDS} ...`);
    const staticRatio = await turns('/static.txt');
    const phpRatio = await turns('/hello.php');

    // 5. The site's own certificate (one's own, uploaded: no CA is asked) as Berth serves it, against
    // the same files named statically in a hand-written server block.
    log(`  TLS handshakes: the site's certificate by SNI against a static one, in turn, best of ${ROUNDS} ...`);
    const chainDir = path.join(dir, 'own-certificate');
    mkdirSync(chainDir);
    const own = await ownChain(chainDir, ['bench-site.example', '*.bench-site.example'], 'bench');
    await app.call(
      'PUT',
      `/api/host/domain/${site}/certificate`,
      { certificate: own.leaf + own.intermediate + own.root, private_key: own.key },
      200,
    );
    const certificateFiles = path.join(settings.runDir, 'certificates', String(site));
    await until(async () => existsSync(`${certificateFiles}.crt`), 10_000, "the site's certificate");
    const tlsBaselinePort = await freePort();
    writeFileSync(
      path.join(settings.runDir, 'conf.d', 'tls-baseline.conf'),
      `server {\n  listen 127.0.0.1:${tlsBaselinePort} ssl;\n  ssl_certificate ${certificateFiles}.crt;\n  ssl_certificate_key ${certificateFiles}.key;\n  return 204;\n}\n`,
    );
    process.kill(Number(readFileSync(path.join(settings.runDir, 'nginx.pid'), 'utf8')), 'SIGHUP');
    await until(async () => (await handshakesPerSecond(tlsBaselinePort, 'bench-site.example', 1, 0.05)) > 0, 10_000, 'the TLS baseline');
    const siteRounds: number[] = [];
    const baselineRounds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await inTurn(round, [
        async () => siteRounds.push(await handshakesPerSecond(settings.httpsPort, 'bench-site.example', 20, 5)),
        async () => baselineRounds.push(await handshakesPerSecond(tlsBaselinePort, 'bench-site.example', 20, 5)),
      ]);
    }
    const handshakes = { site: Math.max(...siteRounds), baseline: Math.max(...baselineRounds) };

    // 4. Scale: the agent stopped, its files and folders gone, `sites` sites added, then started.
    log(`  ${sites} sites: a full apply from an empty directory, then one change ...`);
    agent.kill('SIGTERM');
    await new Promise((resolve) => agent.once('exit', resolve));
    for (const file of ['sites.conf', 'sites.json']) rmSync(path.join(settings.runDir, file), { force: true });
    rmSync(settings.webRoot, { recursive: true, force: true });
    await sql`insert into domains (tenant_id, owner_id, name)
      select 1, ${owner}, 'scale-' || n || '.example' from generate_series(1, ${sites}) n`.execute(handle.db);
    const total = sites + 1;
    const started = performance.now();
    agent = startAgent();
    const fullApplyMs = await until(
      async () => {
        const live = await sql<{ n: number }>`select count(*)::int as n from web.site_status s join domains d on d.id = s.site_id
          where s.state = 'live' and s.revision = d.web_revision`.execute(handle.db);
        return live.rows[0]!.n >= total;
      },
      600_000,
      'the full apply',
    ).then(() => performance.now() - started);
    const last = `scale-${sites}.example`;
    await until(async () => (await get(settings.httpPort, last)).status === 200, 60_000, 'the last site');
    const lastId = (await handle.db.selectFrom('domains').select('id').where('name', '=', last).executeTakeFirstOrThrow()).id;
    const lastHome = path.join(settings.webRoot, String(owner), last);
    mkdirSync(path.join(lastHome, 'changed'), { recursive: true });
    writeFileSync(path.join(lastHome, 'changed', 'index.html'), 'changed');
    const changeStarted = performance.now();
    await app.call('PATCH', `/api/host/domain/${lastId}`, { settings: { document_root: 'changed' } }, 200);
    await until(async () => (await get(settings.httpPort, last)).body === 'changed', 60_000, 'the change');
    const oneChangeMs = performance.now() - changeStarted;
    const nginxMemory = nginxMemoryMb(Number(readFileSync(path.join(settings.runDir, 'nginx.pid'), 'utf8')));
    return {
      propagation,
      staticRatio,
      phpRatio,
      handshakes,
      scale: { sites: total, fullApplyMs, oneChangeMs, nginxMemoryMb: nginxMemory },
    };
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const child of children) child.kill('SIGKILL');
    await closeApp();
    await handle.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
    for (const name of readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .map((line) => line.split(':')[0] ?? '')
      .filter((user) => user.startsWith(prefix))) {
      spawn('userdel', [name], { stdio: 'ignore' });
    }
  }
}

const verdict = (ok: boolean) => (ok ? 'ABOVE GOAL' : 'BELOW GOAL');

export function formatWebsites(figures: WebsiteFigures): string {
  const ratio = (pair: { site: LoadResult; baseline: LoadResult }) => pair.site.requestsPerSecond / pair.baseline.requestsPerSecond;
  const { propagation, staticRatio, phpRatio, handshakes, scale } = figures;
  const handshakeRatio = handshakes.site / handshakes.baseline;
  return [
    `Websites, panel change to nginx answer (${propagation.changes} changes of a document root)`,
    `  p50 ${propagation.p50Ms.toFixed(1)} ms, p99 ${propagation.p99Ms.toFixed(1)} ms (goal p99 < ${GOALS.propagationP99Ms} ms) ${verdict(propagation.p99Ms < GOALS.propagationP99Ms)}`,
    `Static file through the generated configuration vs a hand-written one (same nginx, best of ${ROUNDS})`,
    `  ${staticRatio.site.requestsPerSecond.toFixed(0)} vs ${staticRatio.baseline.requestsPerSecond.toFixed(0)} req/s: ratio ${ratio(staticRatio).toFixed(2)} (goal >= ${GOALS.staticRatio}) ${verdict(ratio(staticRatio) >= GOALS.staticRatio)}`,
    `PHP hello world through the customer's pool vs a plain pool (same FPM, best of ${ROUNDS})`,
    `  ${phpRatio.site.requestsPerSecond.toFixed(0)} vs ${phpRatio.baseline.requestsPerSecond.toFixed(0)} req/s: ratio ${ratio(phpRatio).toFixed(2)} (goal >= ${GOALS.phpRatio}) ${verdict(ratio(phpRatio) >= GOALS.phpRatio)}`,
    `TLS handshakes with the site's certificate by SNI vs the same certificate static (same nginx, best of ${ROUNDS})`,
    `  ${handshakes.site.toFixed(0)} vs ${handshakes.baseline.toFixed(0)} handshakes/s: ratio ${handshakeRatio.toFixed(2)} (goal >= ${GOALS.handshakeRatio}) ${verdict(handshakeRatio >= GOALS.handshakeRatio)}`,
    `${scale.sites} sites on one web server`,
    `  full apply from an empty directory ${(scale.fullApplyMs / 1000).toFixed(1)} s (goal < ${GOALS.fullApplyMs / 1000} s) ${verdict(scale.fullApplyMs < GOALS.fullApplyMs)}`,
    `  one change applied ${(scale.oneChangeMs / 1000).toFixed(2)} s (goal < ${GOALS.oneChangeMs / 1000} s) ${verdict(scale.oneChangeMs < GOALS.oneChangeMs)}`,
    `  nginx memory (master and workers) ${scale.nginxMemoryMb.toFixed(0)} MB`,
  ].join('\n');
}

// `node bench/src/websites.ts` alone (BENCH_SITES, default 10,000).
if (import.meta.url === `file://${process.argv[1]}` && existsSync('/usr/sbin/nginx')) {
  const figures = await measureWebsites({ log: (line) => process.stdout.write(`${line}\n`) });
  process.stdout.write(`${formatWebsites(figures)}\n`);
}
