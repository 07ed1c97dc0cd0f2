// Logins/s against raw argon2id verifies/s (bench/README.md, item 4), and beside them the same verify
// answered over HTTP by a bare Fastify (bench/src/verify-baseline-server.ts): that one shows what
// any answer costs beside the hash on the machine the bench runs on, so the part of the gap that is
// Berth's own can be read off; and Berth's own password step answered by a bare Fastify
// (bench/src/login-floor-server.ts), which splits that part into the sign-in's two statements and
// Berth's request path. All are loaded by wrk (src/wrk.ts says why). Part of `npm run bench`;
// `node bench/src/logins.ts` runs it alone.
import argon2 from 'argon2';
import os from 'node:os';
import pg from 'pg';
import { argon2VerifiesPerSecond, type Argon2Parameters } from './argon2-baseline.ts';
import { cpuSnapshot, formatSplit, perOperation, type CpuSplit } from './cpu-split.ts';
import { createBenchDatabase } from './database.ts';
import { best, inTurn, type LoadOptions, type LoadResult } from './load.ts';
import { formatComparison, type Comparison } from './report.ts';
import { startBerth, startLoginFloor, startVerifyBaseline, type RunningServer } from './servers.ts';
import { measureWrk } from './wrk.ts';

const CONNECTIONS = 4;

export const loginSettings = {
  connections: CONNECTIONS,
  /**
   * Raw verifies at once: as many as the logins' connections, but no more than Berth itself hashes
   * at once (one per core, server/src/lib/password.ts). On 2 cores, 4 verifies at a time made each
   * about 7% dearer than 2 (cache and time-slicing), a loss the server no longer takes: the
   * baseline must not take it either, or the ratio would credit Berth with hashing better instead
   * of with doing little beside the hash.
   */
  verifyConcurrency: Math.min(CONNECTIONS, os.availableParallelism()),
  // The server's own defaults (server/src/lib/password.ts); passed to it explicitly so both sides match.
  argon2: { memoryCost: 19_456, timeCost: 2, parallelism: 1 } satisfies Argon2Parameters,
  admin: { email: 'bench@localhost', password: 'bench-password-0123456789' },
  goal: 0.9,
  /**
   * For reference only: the admin's hash made this cheap for one more run of logins, so the same
   * path is measured while no hash crowds the cores (what Berth's own work costs, warm).
   */
  cheapArgon2: { memoryCost: 1_024, timeCost: 1, parallelism: 1 } satisfies Argon2Parameters,
};

export interface LoginRunSettings {
  durationSeconds: number;
  warmupSeconds: number;
  /** Turns of logins, verifies over HTTP and raw verifies; the best of each counts. */
  rounds: number;
}

export interface LoginFigures {
  logins: LoadResult;
  /** CPU per login of the best run, by part. */
  loginSplit: CpuSplit;
  overHttp: LoadResult;
  overHttpSplit: CpuSplit;
  /** Berth's password step (its two statements and the verify) answered by a bare Fastify. */
  floor: LoadResult;
  floorSplit: CpuSplit;
  /** Raw verifies per second, the best run. */
  verifies: number;
  runs: { logins: number[]; overHttp: number[]; floor: number[]; verifies: number[]; packageVerifies: number[] };
  /** Raw verifies per second by the `argon2` package, which the server ran before: the best run. */
  packageVerifies: number;
  /** Failed answers over every run of every side, not only the best ones. */
  failures: number;
  /** The same logins with loginSettings.cheapArgon2's hash: their rate and CPU per login. */
  cheapHash: { logins: LoadResult; split: CpuSplit };
}

/**
 * Logins on `berth` (signed in as loginSettings.admin), the verify over HTTP and raw verifies, in
 * turn; then, for reference, the logins once more with a cheap hash (`databaseUrl` is the bench's
 * own database, whose admin's hash is swapped for that run and put back).
 */
export async function measureLogins(
  berth: RunningServer,
  databaseUrl: string,
  run: LoginRunSettings,
  log: (line: string) => void = () => {},
): Promise<LoginFigures> {
  const { admin, argon2: parameters } = loginSettings;
  const databaseName = new URL(databaseUrl).pathname.slice(1);
  const hash = await argon2.hash(admin.password, { type: argon2.argon2id, ...parameters });
  const overHttpServer = await startVerifyBaseline(hash);
  const floorServer = await startLoginFloor(databaseUrl, admin.email).catch(async (error: unknown) => {
    await overHttpServer.stop();
    throw error;
  });
  try {
    const load = (url: string, body: object): LoadOptions => ({
      url,
      connections: loginSettings.connections,
      durationSeconds: run.durationSeconds,
      warmupSeconds: 0,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const loginLoad = load(`${berth.url}/api/login`, { ...admin, remember: false });
    const sides = [
      {
        server: berth,
        load: loginLoad,
        runs: [] as LoadResult[],
        splits: [] as CpuSplit[],
      },
      {
        server: overHttpServer,
        load: load(`${overHttpServer.url}/`, { password: admin.password }),
        runs: [] as LoadResult[],
        splits: [] as CpuSplit[],
      },
      {
        server: floorServer,
        load: load(`${floorServer.url}/`, { email: admin.email, password: admin.password }),
        runs: [] as LoadResult[],
        splits: [] as CpuSplit[],
      },
    ];
    const verifyRuns: number[] = [];
    const packageRuns: number[] = [];
    // They take turns, in the reverse order every other round (load.ts inTurn), and the best run of
    // each counts, so that other work on the machine falls on all alike (one run of each, minutes
    // apart, swung the ratio between 0.70 and 0.86 here).
    log(
      `POST /api/login, the verify over HTTP, Berth's password step over HTTP (${loginSettings.connections} connections each) and argon2id verifies in-process, in turn, best of ${run.rounds} ...`,
    );
    for (let round = 0; round < run.rounds; round++) {
      const warmupSeconds = round === 0 ? run.warmupSeconds : 0;
      const { verifyConcurrency } = loginSettings;
      await inTurn(round, [
        ...sides.map((side) => async () => {
          if (warmupSeconds > 0) await measureWrk({ ...side.load, durationSeconds: warmupSeconds });
          const before = cpuSnapshot(side.server.pid, databaseName);
          const result = await measureWrk(side.load);
          side.splits.push(perOperation(before, cpuSnapshot(side.server.pid, databaseName), result.completed));
          side.runs.push(result);
        }),
        async () =>
          verifyRuns.push(await argon2VerifiesPerSecond(admin.password, parameters, verifyConcurrency, run.durationSeconds, warmupSeconds)),
        async () =>
          packageRuns.push(
            await argon2VerifiesPerSecond(
              admin.password,
              parameters,
              verifyConcurrency,
              run.durationSeconds,
              warmupSeconds,
              'argon2-package',
            ),
          ),
      ]);
    }
    const [logins, overHttp, floor] = sides.map((side) => {
      const top = best(side.runs);
      return { result: top, split: side.splits[side.runs.indexOf(top)] ?? {} };
    });
    if (!logins || !overHttp || !floor) throw new Error('three sides expected');
    const perSecond = (runs: LoadResult[]) => runs.map((result) => result.requestsPerSecond);
    const cheapHash = await withAdminHash(databaseUrl, loginSettings.cheapArgon2, async () => {
      await measureWrk({ ...loginLoad, durationSeconds: run.warmupSeconds });
      const before = cpuSnapshot(berth.pid, databaseName);
      const logins = await measureWrk(loginLoad);
      return { logins, split: perOperation(before, cpuSnapshot(berth.pid, databaseName), logins.completed) };
    });
    return {
      logins: logins.result,
      loginSplit: logins.split,
      overHttp: overHttp.result,
      overHttpSplit: overHttp.split,
      floor: floor.result,
      floorSplit: floor.split,
      verifies: Math.max(...verifyRuns),
      packageVerifies: Math.max(...packageRuns),
      runs: {
        logins: perSecond(sides[0]?.runs ?? []),
        overHttp: perSecond(sides[1]?.runs ?? []),
        floor: perSecond(sides[2]?.runs ?? []),
        verifies: verifyRuns,
        packageVerifies: packageRuns,
      },
      failures: sides.flatMap((side) => side.runs).reduce((sum, result) => sum + result.failures, 0) + cheapHash.logins.failures,
      cheapHash,
    };
  } finally {
    await floorServer.stop();
    await overHttpServer.stop();
  }
}

/** Runs `work` while the bench admin's password is hashed with `parameters`; the hash it had is put back. */
async function withAdminHash<T>(databaseUrl: string, parameters: Argon2Parameters, work: () => Promise<T>): Promise<T> {
  const { admin } = loginSettings;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ password_hash: string }>('select password_hash from users where email = $1', [admin.email]);
    const kept = rows[0]?.password_hash;
    if (!kept) throw new Error(`no user ${admin.email} in the bench database`);
    const cheap = await argon2.hash(admin.password, { type: argon2.argon2id, ...parameters });
    await client.query('update users set password_hash = $1 where email = $2', [cheap, admin.email]);
    try {
      return await work();
    } finally {
      await client.query('update users set password_hash = $1 where email = $2', [kept, admin.email]);
    }
  } finally {
    await client.end();
  }
}

/** The figure with its goal, and the verify over HTTP for reference. */
export function loginComparisons(figures: LoginFigures): {
  login: Comparison;
  againstPackage: Comparison;
  overHttp: Comparison;
  beside: Comparison;
  statements: Comparison;
  requestPath: Comparison;
} {
  const { connections, verifyConcurrency, argon2: p } = loginSettings;
  const verify = { label: 'argon2id verify', result: { requestsPerSecond: figures.verifies } };
  return {
    login: {
      title: `Logins (${connections} connections) vs raw argon2id verifies (OpenSSL's, back to back on ${verifyConcurrency} threads as the server runs it, m=${p.memoryCost} KiB, t=${p.timeCost}, p=${p.parallelism})`,
      subject: { label: 'Berth POST /api/login', result: figures.logins },
      baseline: verify,
      goal: loginSettings.goal,
    },
    againstPackage: {
      title: 'The same logins vs raw verifies of the `argon2` package, which the server ran before',
      subject: { label: 'Berth POST /api/login', result: figures.logins },
      baseline: { label: 'argon2 package verify', result: { requestsPerSecond: figures.packageVerifies } },
    },
    overHttp: {
      title: `The same verify answered over HTTP by a bare Fastify (${connections} connections) vs raw verifies: this machine's cost of an answer beside the hash`,
      subject: { label: 'Fastify POST + verify', result: figures.overHttp },
      baseline: verify,
    },
    beside: {
      title: 'Logins vs the verify over HTTP: what Berth itself does beside the hash',
      subject: { label: 'Berth POST /api/login', result: figures.logins },
      baseline: { label: 'Fastify POST + verify', result: figures.overHttp },
    },
    statements: {
      title:
        "Berth's password step (its two statements and the verify) answered by a bare Fastify vs the verify over HTTP: what the two statements cost",
      subject: { label: "Fastify + Berth's sign-in", result: figures.floor },
      baseline: { label: 'Fastify POST + verify', result: figures.overHttp },
    },
    requestPath: {
      title: "Logins vs Berth's password step answered by a bare Fastify: what Berth's request path costs",
      subject: { label: 'Berth POST /api/login', result: figures.logins },
      baseline: { label: "Fastify + Berth's sign-in", result: figures.floor },
    },
  };
}

/**
 * Each round's logins over the same round's raw verifies, seconds apart. The figure with its goal
 * takes the best run of each side, which may come from different rounds; this host's speed moved
 * by up to 20% between rounds a minute apart (bench/README.md, item 4), so the paired ratios show
 * how much of the figure is that.
 */
function pairedRatios(runs: LoginFigures['runs']): string[] {
  return runs.logins.map((logins, round) => (logins / (runs.verifies[round] ?? Number.NaN)).toFixed(2));
}

export function formatLogins(figures: LoginFigures): string[] {
  const comparisons = loginComparisons(figures);
  const rate = (values: number[]) => values.map((value) => value.toFixed(0)).join(', ');
  const rawVerifyMs = (os.cpus().length * 1000) / figures.verifies;
  const lines = [
    `per second of each run: logins ${rate(figures.runs.logins)}; verifies over HTTP ${rate(figures.runs.overHttp)}; Berth's password step over HTTP ${rate(figures.runs.floor)}; raw verifies ${rate(figures.runs.verifies)} (the argon2 package's: ${rate(figures.runs.packageVerifies)})`,
    `logins over the raw verifies of the same round: ${pairedRatios(figures.runs).join(', ')}`,
    '',
    formatComparison(comparisons.login),
  ];
  if (Object.keys(figures.loginSplit).length > 0) {
    lines.push(
      `  CPU per login in its best run, ms: ${formatSplit(figures.loginSplit)}; a raw verify: ${rawVerifyMs.toFixed(2)} (cores × 1000 / verifies per s)`,
    );
  }
  lines.push('', formatComparison(comparisons.againstPackage));
  lines.push('', formatComparison(comparisons.overHttp));
  if (Object.keys(figures.overHttpSplit).length > 0) {
    lines.push(`  CPU per answer in its best run, ms: ${formatSplit(figures.overHttpSplit)}`);
  }
  lines.push('', formatComparison(comparisons.beside));
  lines.push('', formatComparison(comparisons.statements));
  if (Object.keys(figures.floorSplit).length > 0) {
    lines.push(`  CPU per answer in its best run, ms: ${formatSplit(figures.floorSplit)}`);
  }
  lines.push('', formatComparison(comparisons.requestPath));
  const cheap = loginSettings.cheapArgon2;
  lines.push(
    '',
    `The same logins with a cheap hash (m=${cheap.memoryCost} KiB, t=${cheap.timeCost}), for reference: Berth's path while no hash crowds the cores`,
    `  ${figures.cheapHash.logins.requestsPerSecond.toFixed(0)} logins/s; CPU per login, ms: ${formatSplit(figures.cheapHash.split)}`,
  );
  if (figures.failures > 0)
    lines.push(`  WARNING: ${figures.failures} answers failed over all runs of both sides; the rates above undercount.`);
  return lines;
}

// `node bench/src/logins.ts` runs this figure alone, on a fresh bench database.
if (import.meta.url === `file://${process.argv[1]}`) {
  const database = await createBenchDatabase();
  try {
    const berth = await startBerth({
      databaseUrl: database.url,
      adminEmail: loginSettings.admin.email,
      adminPassword: loginSettings.admin.password,
      argon2MemoryKib: loginSettings.argon2.memoryCost,
      argon2TimeCost: loginSettings.argon2.timeCost,
    });
    try {
      const figures = await measureLogins(berth, database.url, { durationSeconds: 10, warmupSeconds: 6, rounds: 3 }, console.log);
      for (const line of formatLogins(figures)) console.log(line);
    } finally {
      await berth.stop();
    }
  } finally {
    await database.drop();
  }
}
