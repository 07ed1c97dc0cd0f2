// The domains page at scale on PostgreSQL, over HTTP: a Berth server started as in production (its
// own process, rate limits off as for the other benches) on a fresh database loaded with
// generate_series, timed list and search pages as a host admin and as a customer; p50/p99 against
// the goal p99 < 50 ms. Part of `npm run bench` (100,000 domains by default there);
// `node bench/src/domains.ts` alone runs 1,000,000 (BENCH_DOMAINS sets either).
import { request } from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import type { Db } from '../../server/src/db/connection.ts';
import { openDatabase } from '../../server/src/db/connection.ts';
import { encodeCursor } from '../../server/src/db/keyset.ts';
import { PasswordHasher } from '../../server/src/lib/password.ts';
import { DEMO_NAME_PARTS } from '../../server/src/modules/demo/service.ts';
import { createBenchDatabase } from './database.ts';
import { logInOnHost } from './pages.ts';
import { startBerth } from './servers.ts';

const CUSTOMERS = 2_000;
const REQUESTS = 200;
const PASSWORD = 'bench-password-0123456789';
const WARMUP = 20;
const GOAL_P99_MS = 50;

const log = (text: string) => process.stdout.write(`${text}\n`);
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

const { words: WORDS, suffixes: SUFFIXES, tlds: TLDS } = DEMO_NAME_PARTS;

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
  return after.all === before.all ? 0 : 1 - (after.idle - before.idle) / (after.all - before.all);
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** A GET with the tenant's host name (fetch may not set Host), its status and body. */
function getOnHost(address: string, host: string, cookie: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    request(address, { headers: { host, cookie } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** The domains page at `count` domains: the table of p50/p99 per viewer and scenario, as lines. */
export async function measureDomainsPage(count: number): Promise<string[]> {
  const lines: string[] = [];
  const database = await createBenchDatabase();
  // The server migrates the database and makes its operator on start.
  const berth = await startBerth({
    databaseUrl: database.url,
    adminEmail: 'root@localhost',
    adminPassword: PASSWORD,
    argon2MemoryKib: 19_456,
    argon2TimeCost: 2,
  });
  const handle = await openDatabase({ databaseUrl: database.url, dataDir: '' });
  try {
    return await measure(handle.db, berth.url, count, lines);
  } finally {
    await berth.stop().catch(() => undefined);
    await handle.close().catch(() => undefined);
    await database.drop();
  }
}

async function measure(db: Db, url: string, count: number, lines: string[]): Promise<string[]> {
  const started = performance.now();
  const passwordHash = await new PasswordHasher({ memoryCost: 19_456, timeCost: 2 }).hash(PASSWORD);

  // One tenant with a host admin and 2,000 customers owning the domains round-robin (500 each).
  const tenant = await db.insertInto('tenants').values({ title: 'Bench Hosting' }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('tenant_hosts').values({ tenant_id: tenant.id, host: 'bench.test' }).execute();
  const admin = await db
    .insertInto('users')
    .values({ tenant_id: tenant.id, email: 'admin@bench.test', password_hash: passwordHash, role: 'host_admin' })
    .returning(['id', 'tenant_id'])
    .executeTakeFirstOrThrow();
  await sql`insert into users (tenant_id, email, password_hash, role)
    select ${tenant.id}, 'customer' || g || '@bench.test', ${passwordHash}, 'customer' from generate_series(1, ${CUSTOMERS}) g`.execute(db);
  const words = sql.raw(`array[${WORDS.map((w) => `'${w}'`).join(',')}]`);
  const suffixes = sql.raw(`array[${SUFFIXES.map((w) => `'${w}'`).join(',')}]`);
  const tlds = sql.raw(`array[${TLDS.map((w) => `'${w}'`).join(',')}]`);
  // Names like harbor-shop1234.com; 10 % without expiry, the rest spread from 100 days ago to 1,000 days ahead.
  await sql`
    with owners as (
      select id, row_number() over (order by id) - 1 as n from users where tenant_id = ${tenant.id} and role = 'customer'
    )
    insert into domains (tenant_id, owner_id, name, expire_at, created_at, updated_at)
    select ${tenant.id}, owners.id,
           (${words})[1 + g % 15] || '-' || (${suffixes})[1 + (g / 15) % 10] || (g / 150)::text || '.' || (${tlds})[1 + g % 7],
           case when g % 10 = 0 then null else now() + ((g::bigint * 7919) % 1100 - 100) * interval '1 day' end,
           now(), now()
    from generate_series(1, ${count}) g
    join owners on owners.n = g % ${CUSTOMERS}`.execute(db);
  await sql`vacuum analyze domains`.execute(db);
  await sql`analyze users`.execute(db);
  // The bulk load's dirty pages are written now, not while requests are being timed.
  await sql`checkpoint`.execute(db).catch(() => undefined);
  lines.push(`loaded ${count.toLocaleString('en-US')} domains in ${seconds(started)}`);

  const customer = await db
    .selectFrom('users')
    .select(['id', 'tenant_id'])
    .where('email', '=', 'customer1@bench.test')
    .executeTakeFirstOrThrow();
  // Signed in through POST /api/login on the tenant's host, as a browser would be.
  const host = `bench.test:${new URL(url).port}`;
  const viewers = {
    'host admin': { user: admin, cookie: await logInOnHost(url, host, 'admin@bench.test', PASSWORD) },
    customer: { user: customer, cookie: await logInOnHost(url, host, 'customer1@bench.test', PASSWORD) },
  };

  // Starting points anywhere in the list: keyset pages must be as fast at page 20,000 as at page 1.
  // Search terms are cut from names the viewer has, so a customer's searches find something too.
  const randomRows = async (ownerId: number | null, count: number) => {
    let query = db.selectFrom('domains').select(['id', 'name', 'expire_at']).where('tenant_id', '=', tenant.id);
    if (ownerId !== null) query = query.where('owner_id', '=', ownerId);
    return query
      .orderBy(sql`random()`)
      .limit(count)
      .execute();
  };
  type Row = Awaited<ReturnType<typeof randomRows>>[number];
  type Query = Record<string, string>;
  const fromRows = (make: (row: Row) => Query) => async (ownerId: number | null) => {
    const rows = await randomRows(ownerId, REQUESTS + WARMUP);
    let i = 0;
    return () => make(rows[i++ % rows.length]!);
  };
  const label = (row: Row) => row.name.split('.')[0]!;
  const scenarios: { name: string; queries: (ownerId: number | null) => Promise<() => Query> }[] = [
    { name: 'list by name, first page', queries: async () => () => ({ sort: 'name' }) },
    {
      name: 'list by name, random depth',
      queries: fromRows((row) => ({ sort: 'name', cursor: encodeCursor('name', ['all', row.name, row.id]) })),
    },
    {
      name: 'list by expiry (desc), random depth',
      queries: fromRows((row) => ({
        sort: '-expire_at',
        cursor: encodeCursor('-expire_at', ['all', row.expire_at ? new Date(row.expire_at).toISOString() : 'infinity', row.id]),
      })),
    },
    { name: 'search: short prefix (3-6 chars)', queries: fromRows((row) => ({ q: row.name.slice(0, 3 + Math.floor(Math.random() * 4)) })) },
    { name: 'search: whole label + "."', queries: fromRows((row) => ({ q: `${label(row)}.` })) },
    { name: 'search: prefix, by expiry', queries: fromRows((row) => ({ q: label(row).slice(0, 8), sort: 'expire_at' })) },
    { name: 'search: middle of a name', queries: fromRows((row) => ({ q: label(row).slice(label(row).indexOf('-') + 1) })) },
    { name: 'search: no match at all', queries: async () => () => ({ q: `zz${Math.floor(Math.random() * 1e6)}` }) },
  ];

  const busy = await busyShareOfCpu(1000);
  if (busy > 0.25)
    lines.push(`note: the CPUs were ${(busy * 100).toFixed(0)} % busy with other work before timing; tail latencies are not comparable`);
  const results: string[][] = [['viewer', 'scenario', 'p50 ms', 'p99 ms', 'rows/page', 'verdict']];
  for (const [viewerName, viewer] of Object.entries(viewers)) {
    for (const scenario of scenarios) {
      const next = await scenario.queries(viewerName === 'customer' ? viewer.user.id : null);
      const timings: number[] = [];
      let rows = 0;
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const query = next();
        const before = performance.now();
        const answer = await getOnHost(`${url}/api/host/domain?${new URLSearchParams(query).toString()}`, host, viewer.cookie);
        const took = performance.now() - before;
        if (answer.status !== 200) throw new Error(`${scenario.name}: ${answer.status} ${answer.text}`);
        const body = JSON.parse(answer.text) as { data: unknown[] };
        if (i >= WARMUP) {
          timings.push(took);
          rows += body.data.length;
        }
      }
      timings.sort((x, y) => x - y);
      const p99 = percentile(timings, 99);
      results.push([
        viewerName,
        scenario.name,
        percentile(timings, 50).toFixed(1),
        p99.toFixed(1),
        (rows / REQUESTS).toFixed(0),
        p99 < GOAL_P99_MS ? 'PASS' : 'BELOW GOAL',
      ]);
    }
  }

  const widths = results[0]!.map((_, column) => Math.max(...results.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row.map((cell, column) => (column >= 2 && column <= 4 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('   ');
  lines.push(
    `GET /api/host/domain at ${count.toLocaleString('en-US')} domains, ${REQUESTS} requests per row (after ${WARMUP} warm-up), over HTTP; goal p99 < ${GOAL_P99_MS} ms`,
  );
  lines.push(line(results[0]!), '-'.repeat(line(results[0]!).length));
  for (const row of results.slice(1)) lines.push(line(row));
  return lines;
}

if (import.meta.main) {
  try {
    for (const text of await measureDomainsPage(Number(process.env.BENCH_DOMAINS ?? 1_000_000))) log(text);
  } catch (error) {
    // Only a broken run sets the exit code; a missed goal is printed as BELOW GOAL (as in run.ts).
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  }
}
