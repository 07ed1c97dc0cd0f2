import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/connection.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { answers, preparePowerDns, startPowerDns, type PowerDnsSettings } from './powerdns.ts';

// `npm run services -- start|stop|status`: the hosting daemons on loopback for development and
// tests, reading DATABASE_URL. For production (port 53, one replica per server) see docs/deploy.md.

const HELP = `Berth hosting services: npm run services -- <start|stop|status>

  start   PowerDNS on 127.0.0.1:5300 (UDP and TCP; BERTH_DNS_PORT to change), reading DATABASE_URL
  stop    stops what start started
  status  says what runs and whether it answers

Needs PostgreSQL (DATABASE_URL): the daemons read Berth's database, which the embedded one cannot share.`;

const say = (line: string) => process.stdout.write(`${line}\n`);
const config = loadConfig();
const runDir = path.resolve(config.BERTH_DATA_DIR, 'services');
const dns = { address: '127.0.0.1', port: Number(process.env.BERTH_DNS_PORT ?? 5300) };
const pidFile = path.join(runDir, 'powerdns', 'pid');

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const runningPid = (): number | undefined => {
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  return Number.isInteger(pid) && alive(pid) ? pid : undefined;
};

async function start(): Promise<void> {
  if (!config.DATABASE_URL) {
    console.error('The hosting services read PostgreSQL: set DATABASE_URL (the embedded database serves only the panel).');
    process.exit(2);
  }
  const pid = runningPid();
  if (pid) {
    say(`PowerDNS runs already (pid ${pid}) on ${dns.address}:${dns.port}`);
    return;
  }
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.BERTH_DATA_DIR });
  try {
    await migrateToLatest(database.db);
    const settings: PowerDnsSettings = { databaseUrl: config.DATABASE_URL, ...dns, runDir: path.join(runDir, 'powerdns') };
    await preparePowerDns(database.db, settings);
    const child = await startPowerDns(settings, { detached: true });
    writeFileSync(pidFile, String(child.pid));
    say(`DNS   PowerDNS on ${dns.address}:${dns.port} (UDP and TCP), pid ${child.pid}; log ${path.join(settings.runDir, 'pdns.log')}`);
  } finally {
    await database.close();
  }
}

async function stop(): Promise<void> {
  const pid = runningPid();
  if (!pid) {
    say('PowerDNS is not running');
    return;
  }
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 50 && alive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(pidFile, { force: true });
  say(`PowerDNS stopped (pid ${pid})`);
}

async function status(): Promise<void> {
  const pid = runningPid();
  const up = await answers(dns.address, dns.port);
  say(`DNS   ${pid ? `running, pid ${pid}` : 'not running'}; ${dns.address}:${dns.port} ${up ? 'answers' : 'does not answer'}`);
  if (!pid || !up) process.exitCode = 1;
}

const command = process.argv[2];
if (command === 'start') await start();
else if (command === 'stop') await stop();
else if (command === 'status') await status();
else {
  say(HELP);
  process.exitCode = command ? 2 : 0;
}
