import { spawn, type ChildProcess } from 'node:child_process';
import { Resolver } from 'node:dns/promises';
import { mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/connection.ts';
import { daemonRoleName, grantNotifiedSerial, grantSchemaReader } from './queries.ts';
import type { Program } from './mail.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
export const PDNS_TEMPLATE = path.join(repoRoot, 'deploy/powerdns/pdns.conf');
/** The role PowerDNS logs in as (one per database, daemons/queries.ts): it reads the schema `pdns` and nothing else. */
export const dnsRoleOf = (databaseUrl: string) => daemonRoleName('berth_dns', databaseUrl);

export interface PowerDnsSettings {
  /** Berth's database (an admin connection is used once, to grant the daemon's role). */
  databaseUrl: string;
  address: string;
  port: number;
  /** Where the rendered configuration, the control socket and the log go. */
  runDir: string;
}

/** The template with every {{name}} filled; a name without a value is an error, not an empty line. */
export function renderTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {{${name}}}`);
    // One line per setting: a value must not start another.
    if (/[\r\n]/.test(String(value))) throw new Error(`{{${name}}} holds a line break`);
    return String(value);
  });
}

/** How a daemon's configuration reaches Berth's database: host, port and name of `databaseUrl`, as `role`. */
export function databaseTemplateValues(databaseUrl: string, role: string, password: string) {
  const url = new URL(databaseUrl);
  return {
    db_host: url.hostname || '127.0.0.1',
    db_port: url.port || '5432',
    db_name: decodeURIComponent(url.pathname.slice(1)),
    db_user: role,
    db_password: password,
  };
}

/** Grants the daemon's role and writes pdns.conf into runDir; answers the rendered text. */
export async function preparePowerDns(db: Db, settings: PowerDnsSettings): Promise<string> {
  const role = dnsRoleOf(settings.databaseUrl);
  const password = await grantSchemaReader(db, role, 'pdns');
  await grantNotifiedSerial(db, role);
  const conf = renderTemplate(readFileSync(PDNS_TEMPLATE, 'utf8'), {
    ...databaseTemplateValues(settings.databaseUrl, role, password),
    address: settings.address,
    port: settings.port,
    run_dir: settings.runDir,
  });
  mkdirSync(settings.runDir, { recursive: true, mode: 0o700 });
  writeFileSync(path.join(settings.runDir, 'pdns.conf'), conf, { mode: 0o600 });
  return conf;
}

/** A resolver that asks only the given server, once, quickly: for readiness checks and tests. */
export function resolverFor(address: string, port: number, timeoutMs = 1_000): Resolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  resolver.setServers([`${address}:${port}`]);
  return resolver;
}

/** Whether a DNS server answers at all (a REFUSED or NXDOMAIN is an answer too). */
export async function answers(address: string, port: number): Promise<boolean> {
  try {
    await resolverFor(address, port, 500).resolveSoa('berth-readiness.invalid');
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code !== undefined && code !== 'ETIMEOUT' && code !== 'ECONNREFUSED';
  }
}

/** PowerDNS as a supervisor runs it (daemons/supervisor.ts). */
export const powerDnsProgram = (settings: PowerDnsSettings): Program => ({
  name: 'powerdns',
  command: 'pdns_server',
  args: [`--config-dir=${settings.runDir}`],
  ready: () => answers(settings.address, settings.port),
});

/**
 * Starts pdns_server on the configuration in runDir and resolves once it answers, with its output
 * in runDir/pdns.log (the tests; `npm run services` runs powerDnsProgram under supervisord).
 */
export async function startPowerDns(settings: PowerDnsSettings): Promise<ChildProcess> {
  const log = openSync(path.join(settings.runDir, 'pdns.log'), 'a');
  const child = spawn('pdns_server', [`--config-dir=${settings.runDir}`], {
    stdio: ['ignore', log, log],
  });
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await answers(settings.address, settings.port)) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`pdns_server did not start: ${readFileSync(path.join(settings.runDir, 'pdns.log'), 'utf8').slice(-2000)}`);
}
