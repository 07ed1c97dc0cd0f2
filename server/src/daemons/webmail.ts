import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WEB_HOST_NAME, type WebmailAgent } from '@berth/contracts';
import type { Db } from '../db/connection.ts';
import { daemonRoleName, grantWebmailStore, installWebmailStore } from './queries.ts';

/**
 * Webmail: Debian's Roundcube (roundcube-core, roundcube-pgsql), served by the web server's nginx
 * and PHP-FPM at `webmail.<panel host>` and `webmail.<domain>` (agent/src/nginx.ts), logging in
 * over IMAP with the mailbox's password and sending through the submission port like any mail
 * client, so the sender rules, the outbound limits, DKIM signing and the mail log hold for it too.
 * Its own data (sessions, contacts, settings) is in the schema `roundcube` of Berth's database,
 * made here from Debian's SQL; docs/decisions/0021-webmail.md says why.
 */

/** Where Debian installs Roundcube: the public folder nginx serves, its schema, its defaults. */
export const ROUNDCUBE_PUBLIC = '/var/lib/roundcube/public_html';
const ROUNDCUBE_SCHEMA_SQL = '/usr/share/roundcube/SQL/postgres.initial.sql';
const ROUNDCUBE_DEFAULTS = '/etc/roundcube/defaults.inc.php';

export const roundcubeInstalled = () => existsSync(path.join(ROUNDCUBE_PUBLIC, 'index.php')) && existsSync(ROUNDCUBE_SCHEMA_SQL);

/** The role Roundcube logs in as (one per database): its own schema `roundcube`, nothing of Berth's. */
export const webmailRoleOf = (databaseUrl: string) => daemonRoleName('berth_webmail', databaseUrl);

export interface WebmailSettings {
  /** The panel host's webmail name (`webmail.<panel host>`); every mail domain's `webmail.<domain>` comes from the database. */
  host: string;
  /** The mail host's IMAP and submission as Roundcube names them: `host:port` in clear on loopback only, else `ssl://` or `tls://`. */
  imap: string;
  smtp: string;
}

/** Roundcube's `[scheme://]host:port`: the host a name or a loopback address, nothing PHP or a URL would read as syntax. */
const ROUNDCUBE_HOST = /^(?:(?:ssl|tls):\/\/)?(?:[A-Za-z0-9.-]+|\[[0-9a-fA-F:]+\]):\d{1,5}$/;
const LOOPBACK = /^(?:127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/;
const DATABASE_PART = /^[A-Za-z0-9_.-]+$/;

const hostOf = (server: string) => server.replace(/^(?:ssl|tls):\/\//, '').replace(/:\d+$/, '');
/** A PHP single-quoted string. */
const php = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * Roundcube's configuration: its database (its own role), the mail host's IMAP and submission, a
 * key of its own for the passwords it keeps in sessions. A server on loopback is reached in clear
 * (IMAP; Dovecot counts loopback as secure) or by STARTTLS without checking the certificate (the
 * submission port asks for TLS before AUTH; its certificate names the mail host, not 127.0.0.1);
 * any other is checked.
 */
export function renderRoundcubeConfig(options: {
  dsn: string;
  imap: string;
  smtp: string;
  desKey: string;
  tempDir: string;
  logDir: string;
}): string {
  for (const server of [options.imap, options.smtp]) {
    if (!ROUNDCUBE_HOST.test(server)) throw new Error(`not a Roundcube server (host:port, ssl:// or tls://): ${server}`);
  }
  const unchecked = (server: string) =>
    LOOPBACK.test(hostOf(server)) ? "['ssl' => ['verify_peer' => false, 'verify_peer_name' => false]]" : 'null';
  return [
    '<?php',
    '// Berth: written by `npm run services` (server/src/daemons/webmail.ts); edits are replaced.',
    '$config = [];',
    `$config['db_dsnw'] = ${php(options.dsn)};`,
    `$config['imap_host'] = ${php(options.imap)};`,
    `$config['imap_conn_options'] = ${unchecked(options.imap)};`,
    `$config['smtp_host'] = ${php(options.smtp)};`,
    `$config['smtp_conn_options'] = ${unchecked(options.smtp)};`,
    // The mailbox's own login sends: the submission port lets it send as its address only.
    "$config['smtp_user'] = '%u';",
    "$config['smtp_pass'] = '%p';",
    `$config['des_key'] = ${php(options.desKey)};`,
    "$config['cipher_method'] = 'AES-256-CBC';",
    `$config['temp_dir'] = ${php(options.tempDir)};`,
    `$config['log_dir'] = ${php(options.logDir)};`,
    "$config['log_driver'] = 'file';",
    "$config['product_name'] = 'Webmail';",
    // No version in the headers of what it sends, nor on its pages.
    "$config['useragent'] = 'Webmail';",
    "$config['display_product_info'] = 0;",
    "$config['skin'] = 'elastic';",
    "$config['plugins'] = [];",
    "$config['support_url'] = '';",
    "$config['enable_installer'] = false;",
    // One identity, its address the mailbox's own (Postfix refuses any other: the sender login map).
    "$config['identities_level'] = 3;",
    // A session ends after 30 minutes idle and only from the address it began at.
    "$config['session_lifetime'] = 30;",
    "$config['ip_check'] = true;",
    "$config['login_autocomplete'] = 0;",
    "$config['x_frame_options'] = 'sameorigin';",
    "$config['max_message_size'] = '25M';",
    '',
  ].join('\n');
}

/** Creates a system user for Roundcube's PHP when missing (Debian's useradd): no login, no shell, no home. */
function ensureSystemUser(user: string): void {
  try {
    execFileSync('id', ['-u', user], { stdio: 'ignore' });
    return;
  } catch {
    // not there yet
  }
  execFileSync('useradd', [
    '--system',
    '--user-group',
    '--no-create-home',
    '--home-dir',
    '/nonexistent',
    '--shell',
    '/usr/sbin/nologin',
    user,
  ]);
}

const idOf = (kind: 'u' | 'g', name: string) => Number(execFileSync('id', [`-${kind}`, name], { encoding: 'utf8' }).trim());

/**
 * Roundcube's schema and role, its system user and its configuration folder (0750, its files 0640:
 * the role's password and the session key are in them). Answers what the agent needs, or null
 * where Roundcube is not installed. Safe to run again: the role keeps its password, the key file stays.
 */
export async function prepareWebmail(
  db: Db,
  options: { databaseUrl: string; runDir: string; userPrefix: string; webmail: WebmailSettings },
): Promise<WebmailAgent | null> {
  if (!roundcubeInstalled()) return null;
  const { webmail } = options;
  if (!WEB_HOST_NAME.test(webmail.host)) throw new Error(`BERTH_WEBMAIL_HOST is not a host name: ${webmail.host}`);
  const url = new URL(options.databaseUrl);
  const database = decodeURIComponent(url.pathname.slice(1));
  if (!DATABASE_PART.test(database) || !DATABASE_PART.test(url.hostname.replace(/^\[|\]$/g, '').replace(/:/g, '.')))
    throw new Error('the database name and host may hold only letters, digits and . _ - for Roundcube');
  await installWebmailStore(db, readFileSync(ROUNDCUBE_SCHEMA_SQL, 'utf8'));
  const role = webmailRoleOf(options.databaseUrl);
  const password = await grantWebmailStore(db, role);

  const runsAsRoot = process.getuid?.() === 0;
  const user = runsAsRoot ? `${options.userPrefix}webmail` : null;
  if (user) ensureSystemUser(user);
  const configDir = path.join(options.runDir, 'roundcube');
  const tempDir = path.join(configDir, 'temp');
  const logDir = path.join(configDir, 'logs');
  mkdirSync(configDir, { recursive: true, mode: 0o750 });
  for (const dir of [tempDir, logDir]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const keyFile = path.join(configDir, 'des_key');
  if (!existsSync(keyFile)) writeFileSync(keyFile, randomBytes(24).toString('base64url').slice(0, 32), { mode: 0o600 });
  const desKey = readFileSync(keyFile, 'utf8').trim();
  const port = url.port || '5432';
  const dsn = `pgsql://${encodeURIComponent(role)}:${encodeURIComponent(password)}@${url.hostname}:${port}/${database}`;
  const configFile = path.join(configDir, 'config.inc.php');
  writeFileSync(configFile, renderRoundcubeConfig({ dsn, imap: webmail.imap, smtp: webmail.smtp, desKey, tempDir, logDir }), {
    mode: 0o640,
  });
  chmodSync(configFile, 0o640);
  // Debian's defaults first, then this folder's config.inc.php (Roundcube reads both from one folder).
  const defaults = path.join(configDir, 'defaults.inc.php');
  rmSync(defaults, { force: true });
  symlinkSync(ROUNDCUBE_DEFAULTS, defaults);
  if (user) {
    const [uid, gid] = [idOf('u', user), idOf('g', user)];
    chownSync(configDir, 0, gid);
    chownSync(configFile, 0, gid);
    for (const dir of [tempDir, logDir]) chownSync(dir, uid, gid);
  }
  return { host: webmail.host, root: ROUNDCUBE_PUBLIC, configDir, user };
}
