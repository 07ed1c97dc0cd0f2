// Load from Debian's `wrk` (C, one thread, epoll) instead of autocannon, for the figures whose
// server fills both cores with password hashing (bench/README.md, item 4). The load client runs on
// the same two cores as the server it measures; a client of real users does not. autocannon cost
// 0.72 ms of CPU per login there, about 3% of a login's share of the cores, taken from the server;
// wrk costs a fraction of that (bench/README.md says how much each run).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { LoadOptions, LoadResult } from './load.ts';

const run = promisify(execFile);

/** A Lua string literal for any text: a long bracket whose level the text does not contain. */
function luaString(text: string): string {
  let level = '';
  while (text.includes(`]${level}]`)) level += '=';
  // A long bracket drops a newline right after its opening, so one is given for it to drop; an
  // index is written `t[ [[k]] ]`, as `t[[[` would open a string.
  return `[${level}[\n${text}]${level}]`;
}

/** The request wrk sends, as its Lua script. */
export function wrkScript(options: Pick<LoadOptions, 'method' | 'headers' | 'body'>): string {
  const lines = [`wrk.method = ${luaString(options.method ?? 'GET')}`];
  if (options.body !== undefined) lines.push(`wrk.body = ${luaString(options.body)}`);
  for (const [name, value] of Object.entries(options.headers ?? {})) lines.push(`wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`);
  return `${lines.join('\n')}\n`;
}

const UNITS_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** wrk's summary, read into a LoadResult; throws on output it does not recognise. */
export function parseWrk(output: string): LoadResult {
  const total = /(\d+) requests in ([\d.]+)(us|ms|s|m)/.exec(output);
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(output);
  if (!total || !p99) throw new Error(`wrk printed no summary:\n${output}`);
  const requests = Number(total[1]);
  const seconds = (Number(total[2]) * (UNITS_MS[total[3] ?? 's'] ?? 1000)) / 1000;
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors = socket ? socket.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0;
  return {
    requestsPerSecond: seconds > 0 ? (requests - non2xx) / seconds : 0,
    p99Ms: Number(p99[1]) * (UNITS_MS[p99[2] ?? 'ms'] ?? 1),
    completed: requests,
    failures: non2xx + errors,
  };
}

/** Like load.ts measureLoad (a warm-up run, then the measured one), with wrk as the client. */
export async function measureWrk(options: LoadOptions): Promise<LoadResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'berth-wrk-'));
  try {
    const script = path.join(dir, 'request.lua');
    await writeFile(script, wrkScript(options));
    const once = async (seconds: number) => {
      const args = ['-t1', `-c${options.connections}`, `-d${seconds}s`, '--timeout', '10s', '--latency', '-s', script, options.url];
      try {
        const { stdout } = await run('wrk', args, { maxBuffer: 1 << 20 });
        return parseWrk(stdout);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('wrk is not installed: apt-get install wrk');
        throw error;
      }
    };
    if (options.warmupSeconds > 0) await once(options.warmupSeconds);
    return await once(options.durationSeconds);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
