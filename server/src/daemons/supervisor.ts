import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Program } from './mail.ts';

const run = promisify(execFile);

/**
 * `npm run services` runs the hosting daemons under Debian's supervisor: each in the foreground,
 * restarted at once when it dies (not at the next `start`), its output in a log of its own, and
 * `supervisorctl status` naming each. The control socket is a file in the run directory, never a
 * network port. In production, systemd units do the same (docs/deploy.md).
 */
export interface Supervisor {
  config: string;
  /** Starts supervisord (which starts every program), or starts what is stopped when it runs already. */
  start(): Promise<'started' | 'running'>;
  stop(): Promise<void>;
  /** `supervisorctl status`: one line per program, its state and pid. */
  status(): Promise<Map<string, { state: string; pid: number | undefined }>>;
  pid(name: string): Promise<number | undefined>;
  running(): boolean;
}

const PLAIN = /^[A-Za-z0-9_./:=@,+-]*$/;
/** supervisord's `command` is split like a shell line: each argument quoted, and nothing else in it. */
const quote = (arg: string) => (PLAIN.test(arg) && arg !== '' ? arg : `"${arg.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`);

export function supervisor(runDir: string, programs: Program[]): Supervisor {
  const config = path.join(runDir, 'supervisord.conf');
  const socket = path.join(runDir, 'supervisor.sock');
  const pidFile = path.join(runDir, 'supervisord.pid');
  const render = () => {
    for (const value of [runDir, ...programs.flatMap((program) => [program.name, program.command, ...program.args])]) {
      if (/[\r\n%]/.test(value)) throw new Error(`not a value for supervisord.conf: ${JSON.stringify(value)}`);
    }
    const sections = [
      `[unix_http_server]\nfile=${socket}\nchmod=0700`,
      `[supervisord]\nlogfile=${path.join(runDir, 'supervisord.log')}\npidfile=${pidFile}\nchildlogdir=${runDir}\nnodaemon=false\nminfds=4096`,
      '[rpcinterface:supervisor]\nsupervisor.rpcinterface_factory = supervisor.rpcinterface:make_main_rpcinterface',
      `[supervisorctl]\nserverurl=unix://${socket}`,
      ...programs.map((program, index) =>
        [
          `[program:${program.name}]`,
          `command=${[program.command, ...program.args].map(quote).join(' ')}`,
          `priority=${(index + 1) * 10}`,
          'autostart=true',
          'autorestart=true',
          // Up after a second counts as started; a daemon that cannot start yet (its port still held
          // by a dying child) is tried again, many times, a second more apart each time.
          'startsecs=1',
          'startretries=1000',
          'stopasgroup=true',
          'killasgroup=true',
          'stopwaitsecs=10',
          'redirect_stderr=true',
          `stdout_logfile=${path.join(runDir, `${program.name}.log`)}`,
          'stdout_logfile_maxbytes=10MB',
          'stdout_logfile_backups=2',
        ].join('\n'),
      ),
    ];
    writeFileSync(config, `; Rendered by server/src/daemons/supervisor.ts for npm run services.\n${sections.join('\n\n')}\n`, {
      mode: 0o600,
    });
  };
  const ctl = async (...args: string[]) =>
    (await run('supervisorctl', ['-c', config, ...args]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }))).stdout;
  const supervisordPid = (): number | undefined => {
    if (!existsSync(pidFile)) return undefined;
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    try {
      process.kill(pid, 0);
      return pid;
    } catch {
      return undefined;
    }
  };
  const handle: Supervisor = {
    config,
    running: () => supervisordPid() !== undefined,
    start: async () => {
      render();
      if (handle.running()) {
        await ctl('reread');
        await ctl('update');
        await ctl('start', 'all');
        return 'running';
      }
      await run('supervisord', ['-c', config]);
      return 'started';
    },
    stop: async () => {
      const pid = supervisordPid();
      if (pid === undefined) return;
      await ctl('shutdown');
      for (let i = 0; i < 200 && supervisordPid() !== undefined; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    },
    status: async () => {
      const states = new Map<string, { state: string; pid: number | undefined }>();
      for (const line of (await ctl('status')).split('\n')) {
        const match = /^(\S+)\s+(\S+)\s*(?:pid (\d+))?/.exec(line);
        if (match?.[1] && match[2]) states.set(match[1], { state: match[2], pid: match[3] ? Number(match[3]) : undefined });
      }
      return states;
    },
    pid: async (name) => (await handle.status()).get(name)?.pid,
  };
  return handle;
}
