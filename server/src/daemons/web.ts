import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { PHP_VERSIONS } from '@berth/contracts';
import path from 'node:path';
import type { Db } from '../db/connection.ts';
import { ftpPrograms, prepareFtp, type FtpSettings } from './ftp.ts';
import { listening, type Program } from './mail.ts';
import { daemonRoleName, grantSchemaReader, grantWebStatus, placeUnplacedSites, registerServer } from './queries.ts';
import { prepareWebmail, type WebmailSettings } from './webmail.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const AGENT = path.join(repoRoot, 'agent/src/main.ts');

export interface WebSettings {
  /** Berth's database (an admin connection is used once, to register the server and grant its agent's role). */
  databaseUrl: string;
  /** This web server's name in `servers`. */
  serverName: string;
  address: string;
  httpPort: number;
  httpsPort: number;
  /** nginx's configuration, sites, logs; the agent's settings file. */
  runDir: string;
  /** The customers' site folders. */
  webRoot: string;
  /** Customers' system users are `<prefix>c<owner id>` (agent/src/php.ts). */
  userPrefix?: string;
  /** Explicit FTPS (Pure-FTPd) for the domain users of this server's sites. */
  ftpPort: number;
  passivePorts: [number, number];
  /** The keys certificate keys are sealed under (SecretBox.derive(CERTIFICATE_KEYS_PURPOSE).exportKeys()): the agent writes the files nginx reads. */
  certificateKeys?: string;
  /** Roundcube at `webmail.<panel host>` and `webmail.<domain>` where Debian's roundcube-core is installed (daemons/webmail.ts). */
  webmail?: WebmailSettings;
}

const ftpSettingsOf = (settings: WebSettings): FtpSettings => ({
  databaseUrl: settings.databaseUrl,
  address: settings.address,
  port: settings.ftpPort,
  passivePorts: settings.passivePorts,
  runDir: path.join(settings.runDir, 'ftp'),
  webRoot: settings.webRoot,
  userPrefix: settings.userPrefix ?? 'berth',
  sitesFile: path.join(settings.runDir, 'sites.json'),
  // agent/src/certificates.ts writes it there (defaultBase).
  defaultCertificate: path.join(settings.runDir, 'certificates', 'default'),
});
const tlsDirOf = (settings: WebSettings) => path.join(settings.runDir, 'tls');

/** The PHP-FPM versions installed here (Debian's php<version>-fpm), each run by supervisord beside nginx. */
export function installedPhpFpm(sbin = '/usr/sbin'): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(sbin);
  } catch {
    // none
  }
  return PHP_VERSIONS.filter((version) => version !== 'off' && names.includes(`php-fpm${version}`));
}

/** The agent's role of one server of one database (daemons/queries.ts daemonRoleName): it reads `web` and writes its own status rows. */
export const webRoleOf = (databaseUrl: string, serverId: number) => daemonRoleName(`berth_web${serverId}`, databaseUrl);

/**
 * Registers the server (roles: web), grants its agent's role, places the sites no server has yet
 * on it, and writes the agent's settings file (0600: it holds the role's password). Answers the
 * agent's database URL. Safe to run again while everything runs.
 */
export async function prepareWeb(db: Db, settings: WebSettings): Promise<{ agentDatabaseUrl: string; settingsFile: string }> {
  const serverId = await registerServer(db, settings.serverName, settings.address);
  const role = webRoleOf(settings.databaseUrl, serverId);
  const password = await grantSchemaReader(db, role, 'web');
  await grantWebStatus(db, role, serverId);
  await placeUnplacedSites(db, serverId);
  // nginx's workers pass through the run directory to the pages it serves (its secrets are 0600).
  mkdirSync(settings.runDir, { recursive: true, mode: 0o755 });
  await prepareFtp(db, ftpSettingsOf(settings), serverId, tlsDirOf(settings));
  const webmail = settings.webmail
    ? await prepareWebmail(db, {
        databaseUrl: settings.databaseUrl,
        runDir: settings.runDir,
        userPrefix: settings.userPrefix ?? 'berth',
        webmail: settings.webmail,
      })
    : null;
  const url = new URL(settings.databaseUrl);
  url.username = role;
  url.password = password;
  const agentDatabaseUrl = url.toString();
  mkdirSync(settings.runDir, { recursive: true, mode: 0o755 });
  const settingsFile = path.join(settings.runDir, 'agent.json');
  writeFileSync(
    settingsFile,
    JSON.stringify({
      BERTH_AGENT_DATABASE_URL: agentDatabaseUrl,
      BERTH_SERVER: settings.serverName,
      BERTH_WEB_RUN_DIR: settings.runDir,
      BERTH_WEB_ROOT: settings.webRoot,
      BERTH_WEB_ADDRESS: settings.address,
      BERTH_HTTP_PORT: settings.httpPort,
      BERTH_HTTPS_PORT: settings.httpsPort,
      BERTH_WEB_USER_PREFIX: settings.userPrefix ?? 'berth',
      ...(settings.certificateKeys ? { BERTH_CERTIFICATE_KEYS: settings.certificateKeys } : {}),
      ...(webmail ? { BERTH_WEBMAIL: JSON.stringify(webmail) } : {}),
    }),
    { mode: 0o600 },
  );
  return { agentDatabaseUrl, settingsFile };
}

/** Whether the agent runs and has listened and applied once: it writes its pid then (agent/src/agent.ts). */
export async function webAgentReady(runDir: string): Promise<boolean> {
  try {
    const pid = Number(readFileSync(path.join(runDir, 'agent.pid'), 'utf8'));
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The web server's programs in the order they start: the agent (it writes nginx's configuration
 * before nginx reads it), then nginx in the foreground.
 */
export function webPrograms(settings: WebSettings): Program[] {
  const conf = path.join(settings.runDir, 'nginx.conf');
  return [
    {
      name: 'web-agent',
      command: process.execPath,
      args: [AGENT, path.join(settings.runDir, 'agent.json')],
      ready: () => webAgentReady(settings.runDir),
    },
    // One master per PHP version, each reading the pools the agent writes (agent/src/php.ts).
    ...installedPhpFpm().map((version): Program => {
      const phpConf = path.join(settings.runDir, `php${version}`, 'php-fpm.conf');
      return {
        name: `php${version}-fpm`,
        command: '/bin/sh',
        args: ['-c', `while [ ! -s '${phpConf}' ]; do sleep 0.2; done; exec /usr/sbin/php-fpm${version} -F -y '${phpConf}'`],
        ready: async () => existsSync(path.join(settings.runDir, `php${version}`, 'idle.sock')),
      };
    }),
    {
      name: 'nginx',
      command: '/bin/sh',
      // The agent writes nginx.conf at its start: wait for it rather than fail and back off. A
      // master killed outright leaves its workers holding the ports: they are ended first (their
      // process group is the old master's pid, which nginx.pid still names).
      args: [
        '-c',
        `while [ ! -s '${conf}' ]; do sleep 0.2; done; ` +
          `old=$(cat '${path.join(settings.runDir, 'nginx.pid')}' 2>/dev/null); ` +
          `[ -n "$old" ] && pkill -KILL -g "$old" -x nginx; ` +
          `exec nginx -c '${conf}' -g 'daemon off;'`,
      ],
      ready: () => listening(settings.address, settings.httpPort),
    },
    ...ftpPrograms(ftpSettingsOf(settings), tlsDirOf(settings)),
  ];
}
