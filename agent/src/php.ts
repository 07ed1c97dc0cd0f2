import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PHP_VERSIONS, type WebSite } from '@berth/contracts';
import { logsDir, type WebLayout } from './nginx.ts';

const run = promisify(execFile);

/** PHP versions the panel knows, without 'off'. */
export type PhpVersion = Exclude<(typeof PHP_VERSIONS)[number], 'off'>;
const KNOWN = PHP_VERSIONS.filter((version): version is PhpVersion => version !== 'off');

/** The PHP-FPM versions this server really has (Debian's php<version>-fpm packages). */
export function installedPhpVersions(sbin = '/usr/sbin'): PhpVersion[] {
  let names: string[];
  try {
    names = readdirSync(sbin);
  } catch {
    return [];
  }
  return KNOWN.filter((version) => names.includes(`php-fpm${version}`));
}

/**
 * The version a site runs on: its own when installed, otherwise the nearest installed one (the
 * newer on a tie), so a site keeps working when its version is removed; null when PHP is off or
 * none is installed.
 */
export function effectivePhpVersion(wanted: WebSite['php_version'], installed: PhpVersion[]): PhpVersion | null {
  if (wanted === 'off' || installed.length === 0) return null;
  if (installed.includes(wanted)) return wanted;
  const value = (version: string) => Number(version);
  return [...installed].sort((a, b) => Math.abs(value(a) - value(wanted)) - Math.abs(value(b) - value(wanted)) || value(b) - value(a))[0]!;
}

export const phpDir = (layout: WebLayout, version: PhpVersion) => path.join(layout.runDir, `php${version}`);
export const phpMainConf = (layout: WebLayout, version: PhpVersion) => path.join(phpDir(layout, version), 'php-fpm.conf');
export const poolSocket = (layout: WebLayout, version: PhpVersion, ownerId: number) =>
  path.join(phpDir(layout, version), `${ownerId}.sock`);
export const poolFile = (layout: WebLayout, version: PhpVersion, ownerId: number) =>
  path.join(phpDir(layout, version), 'pools', `${ownerId}.conf`);
export const customerHome = (layout: WebLayout, ownerId: number) => path.join(layout.webRoot, String(ownerId));

/** The system user a customer's PHP runs as (and their files belong to), when the agent runs as root. */
export const customerUser = (prefix: string, ownerId: number) => `${prefix}c${ownerId}`;

export interface PoolLimits {
  children: number;
  memoryMb: number;
}
export const DEFAULT_POOL_LIMITS: PoolLimits = { children: 5, memoryMb: 128 };

/**
 * The master configuration of one PHP-FPM version: its pid, its log and every customer's pool. It
 * always has a pool of its own (FPM refuses to start with none), which serves nothing, and `ownPools`.
 */
export function renderPhpMain(layout: WebLayout, version: PhpVersion, runsAsRoot: boolean, ownPools = ''): string {
  const dir = phpDir(layout, version);
  return [
    '[global]',
    `pid = ${dir}/php-fpm.pid`,
    `error_log = ${logsDir(layout)}/php${version}-fpm.log`,
    'daemonize = no',
    '',
    '[berth-idle]',
    ...(runsAsRoot ? ['user = nobody', 'group = nogroup'] : []),
    `listen = ${dir}/idle.sock`,
    'pm = ondemand',
    'pm.max_children = 1',
    '',
    // Pools of the server's own (webmail, agent/src/webmail.ts), then the customers'.
    ...(ownPools ? [ownPools] : []),
    `include = ${dir}/pools/*.conf`,
    '',
  ].join('\n');
}

/**
 * One customer's pool: their own user, their own socket (readable by nginx's workers only), PHP
 * confined to their home (open_basedir, temporary files and sessions inside it), limits from their
 * plan. Without root there is one user for every pool: the agent's own (said in the site status).
 */
export function renderPool(
  layout: WebLayout,
  version: PhpVersion,
  ownerId: number,
  user: string | null,
  limits: PoolLimits = DEFAULT_POOL_LIMITS,
): string {
  const home = customerHome(layout, ownerId);
  return [
    `[c${ownerId}]`,
    ...(user
      ? [`user = ${user}`, `group = ${user}`, `listen.owner = ${layout.workerUser ?? user}`, `listen.group = ${layout.workerUser ?? user}`]
      : []),
    `listen = ${poolSocket(layout, version, ownerId)}`,
    'listen.mode = 0660',
    'pm = ondemand',
    `pm.max_children = ${Math.max(1, Math.floor(limits.children))}`,
    'pm.process_idle_timeout = 30s',
    'pm.max_requests = 500',
    `chdir = ${home}`,
    'security.limit_extensions = .php',
    // The script is the file nginx names, or nothing: PHP never goes looking for another one up the path.
    'php_admin_value[cgi.fix_pathinfo] = 0',
    `php_admin_value[open_basedir] = ${home}/`,
    `php_admin_value[upload_tmp_dir] = ${home}/.tmp`,
    `php_admin_value[sys_temp_dir] = ${home}/.tmp`,
    `php_admin_value[session.save_path] = ${home}/.tmp`,
    `php_admin_value[memory_limit] = ${Math.max(16, Math.floor(limits.memoryMb))}M`,
    'php_admin_value[disable_functions] = exec,passthru,shell_exec,system,proc_open,popen,pcntl_exec',
    `php_admin_value[error_log] = ${logsDir(layout)}/c${ownerId}.php${version}.log`,
    'php_admin_flag[log_errors] = on',
    '',
  ].join('\n');
}

/** FPM's own check of a candidate configuration: its message when it fails. */
export async function checkPhp(version: PhpVersion, conf: string): Promise<string | undefined> {
  try {
    await run(`/usr/sbin/php-fpm${version}`, ['-t', '-y', conf]);
    return undefined;
  } catch (error) {
    const text = String((error as { stderr?: string }).stderr ?? (error as Error).message);
    return (text.split('\n').find((line) => /ERROR/.test(line)) ?? text.split('\n')[0] ?? '').replace(/^.*ERROR:\s*/, '').slice(0, 500);
  }
}

/** Creates the customer's system user when missing (Debian's useradd): no login, no shell, home in the web root. */
export async function ensureCustomerUser(user: string, home: string): Promise<void> {
  try {
    await run('id', ['-u', user]);
    return;
  } catch {
    // not there yet
  }
  await run('useradd', ['--system', '--user-group', '--no-create-home', '--home-dir', home, '--shell', '/usr/sbin/nologin', user]);
}
