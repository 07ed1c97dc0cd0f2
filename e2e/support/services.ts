import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base } from './fixtures.ts';
import { freePortRange } from '../../server/test/ports.ts';
import { freePort as anyFreePort, repoRoot, startBerthServer } from './server.ts';
import { createThrowawayDatabase } from './shell-database.ts';

/** Where the hosting daemons of `npm run services` listen for this worker (loopback, free ports). */
export interface HostingServices {
  dnsPort: number;
  smtpPort: number;
  imapPort: number;
  /** nginx's HTTP and HTTPS ports, and explicit FTPS (Pure-FTPd). */
  httpPort: number;
  httpsPort: number;
  ftpPort: number;
}

const servicesScript = path.join(repoRoot, 'server/src/daemons/cli.ts');

/** Removes the system users whose names start with `prefix` (Debian's userdel). */
async function removeUsers(prefix: string): Promise<void> {
  const names = (await readFile('/etc/passwd', 'utf8'))
    .split('\n')
    .map((line) => line.split(':')[0] ?? '')
    .filter((name) => name.startsWith(prefix));
  for (const name of names) {
    await new Promise((resolve) => spawn('userdel', [name], { stdio: 'ignore' }).once('exit', resolve));
  }
}

/** Runs `npm run services -- <command>` (the script itself) and fails with its output if it fails. */
async function services(command: 'start' | 'stop', env: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, [servicesScript, command], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: 'pipe' });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`npm run services -- ${command} exited with ${code}:\n${output}`);
}

/**
 * Specs of what the daemons serve: the worker's server runs on a throwaway PostgreSQL database
 * (the daemons read it; the embedded one cannot be shared) and PowerDNS, Postfix and Dovecot are
 * started on it by the project's own `npm run services -- start`, as a developer starts them.
 */
export const test = base.extend<
  object,
  {
    hostingServices: HostingServices;
    servicePorts: { ports: HostingServices; env: Record<string, string> };
    servicesEnv: Record<string, string>;
    serverEnv: Record<string, string>;
  }
>({
  /** More environment for `npm run services` (a spec's own DNS port, the server's secret key). */
  servicesEnv: [{}, { scope: 'worker', option: true }],
  /** More environment for the worker's server (a CA to order certificates from). */
  serverEnv: [{}, { scope: 'worker', option: true }],

  /**
   * The worker's daemons' ports, chosen before its server starts: the server links to webmail on
   * nginx's HTTPS port (BERTH_WEBMAIL_URL).
   */
  servicePorts: [
    async ({ servicesEnv }, use) => {
      // No port next to another: Pure-FTPd sends active-mode data from the port below its own.
      const taken = new Set<number>(servicesEnv.BERTH_DNS_PORT ? [Number(servicesEnv.BERTH_DNS_PORT)] : []);
      const freePort = async (): Promise<number> => {
        for (;;) {
          const port = await anyFreePort();
          if (!taken.has(port) && !taken.has(port - 1) && !taken.has(port + 1)) {
            taken.add(port);
            return port;
          }
        }
      };
      const ports: HostingServices = {
        dnsPort: servicesEnv.BERTH_DNS_PORT ? Number(servicesEnv.BERTH_DNS_PORT) : await freePort(),
        smtpPort: await freePort(),
        imapPort: await freePort(),
        httpPort: await freePort(),
        httpsPort: await freePort(),
        ftpPort: await freePort(),
      };
      // Pure-FTPd's passive range: 20 ports none of the others is in (nor will be).
      const passive = await freePortRange(20);
      await use({
        ports,
        env: {
          BERTH_DNS_PORT: String(ports.dnsPort),
          BERTH_SMTP_PORT: String(ports.smtpPort),
          BERTH_IMAP_PORT: String(ports.imapPort),
          BERTH_SUBMISSION_PORT: String(await freePort()),
          BERTH_SMTPS_PORT: String(await freePort()),
          BERTH_IMAPS_PORT: String(await freePort()),
          BERTH_POP3_PORT: String(await freePort()),
          BERTH_POP3S_PORT: String(await freePort()),
          BERTH_LMTP_PORT: String(await freePort()),
          BERTH_QUOTA_STATUS_PORT: String(await freePort()),
          // Every listener a port of this worker's own: two workers' mail agents on one policy
          // port (or two Postfixes on one replies port) left one worker's mail agent restarting.
          BERTH_REPLY_PORT: String(await freePort()),
          BERTH_MAIL_POLICY_PORT: String(await freePort()),
          BERTH_SRS_FORWARD_PORT: String(await freePort()),
          BERTH_SRS_REVERSE_PORT: String(await freePort()),
          BERTH_HTTP_PORT: String(ports.httpPort),
          BERTH_HTTPS_PORT: String(ports.httpsPort),
          BERTH_FTP_PORT: String(ports.ftpPort),
          BERTH_FTP_PASSIVE_PORTS: `${passive}:${passive + 19}`,
        },
      });
    },
    { scope: 'worker' },
  ],

  berth: [
    async ({ mailbox, serverEnv, servicePorts }, use) => {
      const database = await createThrowawayDatabase();
      const server = await startBerthServer({
        databaseUrl: database.url,
        // Webmail at the panel host's webmail name, which the browser takes to loopback (*.localhost).
        env: { SMTP_URL: mailbox.url, BERTH_WEBMAIL_URL: `https://webmail.localhost:${servicePorts.ports.httpsPort}/`, ...serverEnv },
      });
      try {
        await use(server);
      } finally {
        await server.stop();
        await database.drop();
      }
    },
    { scope: 'worker', timeout: 90_000 },
  ],

  hostingServices: [
    async ({ berth, servicesEnv, servicePorts }, use) => {
      if (!berth.databaseUrl) throw new Error('the hosting services read PostgreSQL');
      const dataDir = await mkdtemp(path.join(tmpdir(), 'berth-e2e-services-'));
      // Postfix and Dovecot reach their files below here as their own users.
      await chmod(dataDir, 0o755);
      const { ports } = servicePorts;
      // This worker's customers' system users (made by the web agent as root), removed afterwards.
      const userPrefix = `e2e${randomBytes(4)
        .toString('hex')
        .replace(/[0-9]/g, (digit) => 'abcdefghij'[Number(digit)]!)}`;
      const env = {
        DATABASE_URL: berth.databaseUrl,
        BERTH_DATA_DIR: dataDir,
        ...servicePorts.env,
        // rspamd asks Berth's own name server: nothing it looks up leaves the machine.
        BERTH_RSPAMD_DNS: `127.0.0.1:${ports.dnsPort}`,
        // Compiled once for all workers (a start without them takes seconds).
        BERTH_RSPAMD_CACHE_DIR: path.join(tmpdir(), 'berth-rspamd-cache'),
        BERTH_WEB_USER_PREFIX: userPrefix,
        // The web agent measures disks every second and reads logs twice a second here (a minute and 5 s in production).
        BERTH_AGENT_DISK_MS: '1000',
        BERTH_AGENT_LOGS_MS: '500',
        ...servicesEnv,
      };
      await services('start', env);
      try {
        await use(ports);
      } finally {
        await services('stop', env);
        await rm(dataDir, { recursive: true, force: true });
        await removeUsers(userPrefix);
      }
    },
    { scope: 'worker', timeout: 180_000 },
  ],
});

export { expect } from './fixtures.ts';
