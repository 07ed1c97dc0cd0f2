// Where the CPU of a load goes, from Linux's /proc: the server's threads by kind (its event loop,
// its hashing threads, libuv's pool and V8's helpers), the PostgreSQL backends of the bench's
// database, and the load client (this process and the wrk runs it waited for). For the login
// figure: on a machine whose cores the password hashing fills, every millisecond beside the verify
// is a login less.
import { readFileSync, readdirSync } from 'node:fs';
import { HASHING_THREAD_NAME } from '../../server/src/lib/password.ts';

export type CpuSplit = Record<string, number>;

const TICKS_PER_SECOND = 100;

/**
 * utime + stime of a process or one of its threads, in ms (with `children`, plus the CPU of its
 * children that have ended: a load client such as wrk, bench/src/wrk.ts); 0 once it is gone.
 */
function cpuMs(stat: string, children = false): number {
  try {
    const text = readFileSync(stat, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return ((children ? own + Number(fields[13]) + Number(fields[14]) : own) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

const read = (file: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};

/** The CPU used so far, by part; empty where /proc is not Linux's. */
export function cpuSnapshot(serverPid: number | undefined, databaseName: string): CpuSplit {
  const split: CpuSplit = {};
  const add = (part: string, ms: number) => (split[part] = (split[part] ?? 0) + ms);
  if (serverPid !== undefined) {
    for (const tid of safeList(`/proc/${serverPid}/task`)) {
      const name = Number(tid) === serverPid ? 'event loop' : read(`/proc/${serverPid}/task/${tid}/comm`).trim();
      const part =
        name === 'event loop'
          ? name
          : name === HASHING_THREAD_NAME
            ? 'hashing threads (argon2)'
            : name.startsWith('libuv-worker')
              ? "libuv's pool"
              : 'V8 and other threads';
      add(part, cpuMs(`/proc/${serverPid}/task/${tid}/stat`));
    }
  }
  for (const pid of safeList('/proc')) {
    if (!/^\d+$/.test(pid) || read(`/proc/${pid}/comm`).trim() !== 'postgres') continue;
    // A backend's title names its database (`postgres: user database host state`).
    if (read(`/proc/${pid}/cmdline`).split('\0')[0]?.split(' ').includes(databaseName))
      add('PostgreSQL backends', cpuMs(`/proc/${pid}/stat`));
  }
  // The servers this process started are still running, so the ended children are its load clients.
  add('load client (this process and wrk)', cpuMs('/proc/self/stat', true));
  return split;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Milliseconds of CPU per operation, by part, between two snapshots. */
export function perOperation(before: CpuSplit, after: CpuSplit, operations: number): CpuSplit {
  if (operations <= 0) return {};
  return Object.fromEntries(Object.keys(after).map((part) => [part, Math.max(0, (after[part] ?? 0) - (before[part] ?? 0)) / operations]));
}

export const formatSplit = (split: CpuSplit): string =>
  Object.entries(split)
    .map(([part, ms]) => `${part} ${ms.toFixed(2)}`)
    .join(', ');
