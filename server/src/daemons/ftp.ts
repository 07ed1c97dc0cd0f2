import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureDefaultCertificate } from './tls.ts';
import type { Db } from '../db/connection.ts';
import { listening, type Program } from './mail.ts';
import { daemonRoleName, grantSchemaReader } from './queries.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const AUTH_PROGRAM = path.join(repoRoot, 'agent/src/ftp-auth.ts');
const CERT_PROGRAM = path.join(repoRoot, 'agent/src/ftp-cert.ts');
/** The role FTP logins are checked with (one per database): it reads the schema `ftp` and nothing else. */
export const ftpRoleOf = (databaseUrl: string) => daemonRoleName('berth_ftp', databaseUrl);

/** Spliced into a shell script and command lines: checked first. */
const PLAIN_PATH = /^\/[A-Za-z0-9._\-/]+$/;
const PREFIX = /^[a-z][a-z0-9]{0,15}$/;

export interface FtpSettings {
  databaseUrl: string;
  address: string;
  port: number;
  /** Passive data ports, first and last (a firewall opens the same range). */
  passivePorts: [number, number];
  /** Where the login program's settings, pure-authd's socket, the pid and the log go. */
  runDir: string;
  /** The agent's web root: a login lands in `<webRoot>/<owner>/<site>`. */
  webRoot: string;
  /** The customers' system users' prefix (agent/src/php.ts customerUser). */
  userPrefix: string;
  /** The entries the web agent last applied (its sites.json): which certificate each name gets over FTPS too. */
  sitesFile: string;
  /** The web agent's default certificate (`.crt`, `.key`): the panel's own once it has one (migration 0049). */
  defaultCertificate: string;
}

/**
 * Grants the login role and writes what pure-authd runs for each login: agent/src/ftp-auth.ts with
 * its settings (0600: the role's password). See that file for why not Pure-FTPd's own PostgreSQL backend.
 */
export async function prepareFtp(db: Db, settings: FtpSettings, serverId: number, tlsDir: string): Promise<void> {
  for (const file of [settings.webRoot, settings.runDir, process.execPath, AUTH_PROGRAM, CERT_PROGRAM, settings.sitesFile]) {
    if (!PLAIN_PATH.test(file)) throw new Error(`the path may hold only letters, digits and . _ - /: ${file}`);
  }
  if (!PREFIX.test(settings.userPrefix)) throw new Error(`not a user name prefix: ${settings.userPrefix}`);
  const role = ftpRoleOf(settings.databaseUrl);
  const password = await grantSchemaReader(db, role, 'ftp');
  const url = new URL(settings.databaseUrl);
  url.username = role;
  url.password = password;
  mkdirSync(settings.runDir, { recursive: true, mode: 0o700 });
  const settingsFile = path.join(settings.runDir, 'auth.json');
  writeFileSync(
    settingsFile,
    JSON.stringify({
      databaseUrl: url.toString(),
      serverId,
      webRoot: settings.webRoot.replace(/\/+$/, ''),
      userPrefix: settings.userPrefix,
    }),
    { mode: 0o600 },
  );
  // pure-authd runs a program without arguments: this script names the settings.
  writeFileSync(authScript(settings), `#!/bin/sh\nexec '${process.execPath}' '${AUTH_PROGRAM}' '${settingsFile}'\n`, { mode: 0o700 });
  // pure-certd likewise: the certificate of the site that answers the name asked for (SNI).
  writeFileSync(
    certScript(settings),
    `#!/bin/sh\nexec '${process.execPath}' '${CERT_PROGRAM}' '${settings.sitesFile}' '${settings.defaultCertificate}'\n`,
    { mode: 0o700 },
  );
  await ensureDefaultCertificate(tlsDir);
}

const authScript = (settings: FtpSettings) => path.join(settings.runDir, 'ftp-auth');
const authSocket = (settings: FtpSettings) => path.join(settings.runDir, 'authd.sock');
const certScript = (settings: FtpSettings) => path.join(settings.runDir, 'ftp-cert');
const certSocket = (settings: FtpSettings) => path.join(settings.runDir, 'certd.sock');

/**
 * pure-authd (the login program's host) and pure-certd (the certificate program's), then Pure-FTPd in the foreground: explicit FTPS only (no
 * password in clear), every login chrooted into its site's folder as the customer's own user,
 * uploads readable by nginx (umask 133:022), passive ports in the configured range.
 */
export function ftpPrograms(settings: FtpSettings, tlsDir: string): Program[] {
  return [
    {
      name: 'pure-authd',
      command: 'pure-authd',
      args: ['-s', authSocket(settings), '-r', authScript(settings), '-p', path.join(settings.runDir, 'pure-authd.pid')],
      ready: async () => existsSync(authSocket(settings)),
    },
    {
      name: 'pure-certd',
      command: 'pure-certd',
      args: ['-s', certSocket(settings), '-r', certScript(settings), '-p', path.join(settings.runDir, 'pure-certd.pid')],
      ready: async () => existsSync(certSocket(settings)),
    },
    {
      name: 'pure-ftpd',
      command: 'pure-ftpd-postgresql',
      args: [
        ...['-l', `extauth:${authSocket(settings)}`],
        ...['-S', `${settings.address},${settings.port}`],
        ...['-p', `${settings.passivePorts[0]}:${settings.passivePorts[1]}`],
        // Each site's own certificate by the name the client asks for (pure-certd), else the default one.
        ...['-Y', '2', '-2', path.join(tlsDir, 'ftp.pem'), '-3', certSocket(settings)],
        // Chroot everyone, no anonymous, no reverse DNS, customers' system users (>= 100), no root.
        ...['-A', '-E', '-H', '-u', '100'],
        ...['-U', '133:022', '-g', path.join(settings.runDir, 'pure-ftpd.pid')],
        ...['-O', `clf:${path.join(settings.runDir, 'transfer.log')}`],
      ],
      ready: () => listening(settings.address, settings.port),
    },
  ];
}
