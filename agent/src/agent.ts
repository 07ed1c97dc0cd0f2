import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { WEB_HOST_NAME, webSiteSchema, type WebmailAgent, type WebSite } from '@berth/contracts';
import {
  acmeSocket,
  certificatesDir,
  checkedEntries,
  claimHosts,
  documentRoot,
  extraDir,
  logsDir,
  pagesDir,
  renderMain,
  LUA_LIBRARIES,
  LUA_MODULES,
  renderSites,
  siteEntries,
  siteHome,
  sitesFile,
  sitesStateFile,
  type SiteEntries,
  type WebLayout,
  type WebmailEntries,
} from './nginx.ts';
import { renderWebmailPool, webmailPhp, webmailSocket } from './webmail.ts';
import { placeholderPage, suspendedPage } from './pages.ts';
import { reportDisk, reportLogs, reportServer, reportSite, serverIdOf, sitesOf, webmailDomainsOf } from './queries.ts';
import { SiteLogs } from './logs.ts';
import { SiteCertificates } from './certificates.ts';
import { startAcmeResponder } from './acme-challenges.ts';
import { folderKey, measureSiteFolders, sweepSiteFolders } from './upkeep.ts';
import { CustomerUsers, type CustomerUser } from './users.ts';
import {
  checkPhp,
  customerHome,
  DEFAULT_POOL_LIMITS,
  effectivePhpVersion,
  installedPhpVersions,
  phpDir,
  phpMainConf,
  poolSocket,
  renderPhpMain,
  renderPool,
  type PhpVersion,
} from './php.ts';

const run = promisify(execFile);

export interface AgentSettings extends WebLayout {
  /** The server's own role (it reads the schema `web` and writes its own status rows). */
  databaseUrl: string;
  /** The name this server has in `servers`. */
  serverName: string;
  /** Customers' system users are named `<prefix>c<owner id>` (root only); tests give each run its own. */
  userPrefix?: string;
  /** How often the whole state is applied again besides the notifications (ms): catches hand edits. */
  sweepEveryMs?: number;
  /** How often each site's folder is measured (ms), and how often its logs are looked at. */
  diskEveryMs?: number;
  logsEveryMs?: number;
  /** nginx's shared access and error logs are rotated past this size (bytes; one old file kept). */
  logMaxBytes?: number;
  /** The keys certificate keys are sealed under (base64, comma-separated; npm run services writes them). */
  certificateKeys?: string | undefined;
  /** Roundcube, where `npm run services` prepared it (server/src/daemons/webmail.ts). */
  webmail?: WebmailAgent;
  log?: (line: string) => void;
}

export interface RunningAgent {
  /** Applies the database's state now (every folder and file checked again unless `full` is false). */
  pass(full?: boolean): Promise<PassResult>;
  stop(): Promise<void>;
}

export interface PassResult {
  applied: number[];
  failed: { siteId: number; error: string }[];
  removed: number[];
}

const POOL_FILE = /^(\d+)\.conf$/;

/** nginx's own words for a failed check, without the file paths of this machine. */
function nginxError(error: unknown): string {
  const text = String((error as { stderr?: string }).stderr ?? (error as Error).message ?? error);
  const line = text.split('\n').find((l) => l.includes('[emerg]')) ?? text.split('\n')[0] ?? '';
  return line.replace(/^nginx: \[emerg\]\s*/, '').slice(0, 500);
}

/**
 * Pure-FTPd reads its default certificate (its `-2` file) once, at its start, and asks pure-certd
 * only for a client that names a host (server/src/daemons/ftp.ts): after the file changed, its
 * master is told to end and the supervisor starts it again, reading the new one. The master stops
 * listening and leaves; the sessions in progress are processes of their own and go on.
 */
async function restartPureFtpd(pidFile: string, log: (line: string) => void): Promise<void> {
  if (await signalPidFile(pidFile, 'SIGTERM', 'pure-ftpd')) log('Pure-FTPd restarted for the new default certificate');
}

/**
 * The web server's agent: the database says which sites this server serves and how; the agent
 * makes nginx's files say the same. A pass renders every site, writes the ones whose file differs
 * (a change, or a file edited by hand), checks the candidate configuration with `nginx -t` before
 * anything replaces a working file, and reloads nginx gracefully. A site whose rendering or check
 * fails keeps its last good file (or none) and its status row says why; the other sites are applied.
 */
export async function startAgent(settings: AgentSettings): Promise<RunningAgent> {
  const log = settings.log ?? ((line: string) => process.stdout.write(`${new Date().toISOString()} web-agent ${line}\n`));
  // nginx picks each site's certificate with Debian's Lua module (agent/src/nginx.ts): without it
  // every check would fail with nginx's dlopen error, so say what to install instead.
  const missing = [...LUA_MODULES, ...LUA_LIBRARIES].filter((file) => !existsSync(file));
  if (missing.length > 0)
    throw new Error(
      `nginx's Lua module is not installed (${missing.join(', ')}): apt-get install libnginx-mod-http-lua lua-resty-core lua-resty-lrucache`,
    );
  const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: 2, connectionTimeoutMillis: 5_000 });
  pool.on('error', () => undefined);
  for (const dir of [logsDir(settings), pagesDir(settings), extraDir(settings), path.join(settings.runDir, 'tmp')]) {
    mkdirSync(dir, { recursive: true, mode: 0o755 });
  }
  mkdirSync(settings.webRoot, { recursive: true, mode: 0o755 });
  const mainConf = path.join(settings.runDir, 'nginx.conf');
  // The entries nginx serves now, as the last pass applied them (kept across restarts: a site whose
  // row fails its check keeps them).
  let applied = loadApplied(sitesStateFile(settings));
  const certificates = new SiteCertificates(certificatesDir(settings), settings.certificateKeys, settings.workerUser);
  // Pure-FTPd's default certificate and its master's pid file, as npm run services names them
  // (server/src/daemons/ftp.ts).
  const ftpDefault = path.join(settings.runDir, 'tls', 'ftp.pem');
  const ftpPidFile = path.join(settings.runDir, 'ftp', 'pure-ftpd.pid');
  // The default certificate nginx starts with (its configuration names it): in place before nginx.conf.
  // The panel's own certificate when the database has one, else the server's self-signed one.
  const atStart = await certificates.syncDefault(pool, ftpDefault).catch(() => ({ changed: false, ftpChanged: false }));
  if (atStart.ftpChanged) await restartPureFtpd(ftpPidFile, log);
  if (!atStart.changed) await certificates.placeDefault(path.join(settings.runDir, 'tls', 'default'));
  // Written when missing only: nginx may start before the first pass, which rewrites them when they should change.
  if (!existsSync(sitesFile(settings))) writeFileSync(sitesFile(settings), renderSites([...applied.values()]));
  if (!existsSync(mainConf)) writeFileSync(mainConf, renderMain(settings, sitesFile(settings), applied.size * 2));
  const runsAsRoot = process.getuid?.() === 0;
  const installed = installedPhpVersions();
  // Webmail runs on the newest PHP here, in a pool of its own; without PHP it is not served.
  const webmailVersion = settings.webmail ? webmailPhp(installed) : undefined;
  const ownPools = (version: PhpVersion) =>
    settings.webmail && version === webmailVersion ? renderWebmailPool(settings, version, settings.webmail) : '';
  for (const version of installed) {
    mkdirSync(path.join(phpDir(settings, version), 'pools'), { recursive: true, mode: 0o755 });
    writeIfChanged(phpMainConf(settings, version), renderPhpMain(settings, version, runsAsRoot, ownPools(version)));
  }
  /** Webmail's names on this server this pass: the panel host's, and `webmail.<domain>` of its mail domains. */
  let webmail: WebmailEntries | null = null;
  const webmailOf = async (id: number): Promise<WebmailEntries | null> => {
    if (!settings.webmail || !webmailVersion) return null;
    const domains = await webmailDomainsOf(pool, id);
    return {
      hosts: [settings.webmail.host, ...domains.map((domain) => `webmail.${domain}`)].filter((host) => WEB_HOST_NAME.test(host)),
      root: settings.webmail.root,
      php: webmailSocket(settings, webmailVersion),
    };
  };
  const owners = new CustomerUsers(settings.userPrefix ?? 'berth', runsAsRoot);

  let serverId: number | undefined;
  const server = async (): Promise<number> => {
    if (serverId !== undefined) return serverId;
    const id = await serverIdOf(pool, settings.serverName);
    if (id === undefined) throw new Error(`no server named ${settings.serverName} in the database (npm run services prepares it)`);
    serverId = id;
    return serverId;
  };
  // The CA's HTTP-01 questions, handed over by nginx (agent/src/acme-challenges.ts).
  const acme = await startAcmeResponder(pool, server, acmeSocket(settings));

  const nginx = (args: string[]) => run('nginx', ['-e', path.join(logsDir(settings), 'nginx.error.log'), ...args]);
  /** nginx's own check of candidate sites (nginx's words when it fails). */
  const check = async (sitesText: string, hostCount: number): Promise<string | undefined> => {
    const candidate = path.join(settings.runDir, 'check.sites.conf');
    writeFileSync(candidate, sitesText);
    const conf = path.join(settings.runDir, 'check.conf');
    writeFileSync(conf, renderMain(settings, candidate, hostCount));
    try {
      await nginx(['-t', '-q', '-c', conf]);
      return undefined;
    } catch (error) {
      return nginxError(error);
    }
  };

  const prepareFiles = async (site: WebSite) => {
    const owner = await owners.ensure(site.owner_id, customerHome(settings, site.owner_id));
    const home = customerHome(settings, site.owner_id);
    // The customer's home: theirs, nginx's workers may pass, no other customer may enter.
    mkdirSync(home, { recursive: true, mode: 0o750 });
    owner.own(home, 0o750, settings.workerUser);
    const tmp = path.join(home, '.tmp');
    mkdirSync(tmp, { recursive: true, mode: 0o700 });
    owner.own(tmp, 0o700);
    const siteDir = siteHome(settings, site);
    const root = documentRoot(settings, site);
    const made = !existsSync(root);
    mkdirSync(root, { recursive: true, mode: 0o755 });
    // A symlink may not lead the document root out of the site's folder.
    const real = realpathSync(root);
    if (real !== realpathSync(siteDir) && !real.startsWith(`${realpathSync(siteDir)}/`))
      throw new Error('the document root leads outside the site');
    if (made) for (let dir = root; dir.startsWith(`${home}/`); dir = path.dirname(dir)) owner.own(dir, 0o755);
    const placeholder = path.join(root, 'index.html');
    if (readdirSync(root).length === 0) {
      writeFileSync(placeholder, placeholderPage(site), { mode: 0o644 });
      owner.own(placeholder, 0o644);
    }
    if (site.suspended) {
      const dir = path.join(pagesDir(settings), String(site.site_id));
      mkdirSync(dir, { recursive: true, mode: 0o755 });
      writeIfChanged(path.join(dir, 'suspended.html'), suspendedPage(site));
    }
    return owner;
  };

  const report = async (siteId: number, revision: string, error: string | undefined, note: string) => {
    await reportSite(pool, { siteId, serverId: await server(), revision, error, note });
  };

  /**
   * Every PHP version's pools as wanted: written when they differ, checked by FPM before they
   * replace the running ones, then FPM reloads gracefully. Answers the pools FPM refused
   * (`<version>:<owner>`), whose sites keep their last good files.
   */
  const applyPools = async (wanted: Map<PhpVersion, Map<number, string>>): Promise<Map<string, string>> => {
    const refused = new Map<string, string>();
    for (const [version, byOwner] of wanted) {
      const dir = path.join(phpDir(settings, version), 'pools');
      const onDisk = new Map(
        readdirSync(dir).flatMap((file) => {
          const match = POOL_FILE.exec(file);
          return match ? [[Number(match[1]), readFileSync(path.join(dir, file), 'utf8')] as const] : [];
        }),
      );
      const changed = [...byOwner].filter(([ownerId, text]) => onDisk.get(ownerId) !== text).map(([ownerId]) => ownerId);
      const removed = [...onDisk.keys()].filter((ownerId) => !byOwner.has(ownerId));
      if (changed.length === 0 && removed.length === 0) continue;
      const next = path.join(phpDir(settings, version), 'pools.next');
      rmSync(next, { recursive: true, force: true });
      mkdirSync(next, { mode: 0o755 });
      for (const [ownerId, text] of byOwner) writeFileSync(path.join(next, `${ownerId}.conf`), text);
      const checkConf = path.join(phpDir(settings, version), 'check.conf');
      writeFileSync(checkConf, renderPhpMain(settings, version, runsAsRoot, ownPools(version)).replace(`${dir}/*.conf`, `${next}/*.conf`));
      const problem = await checkPhp(version, checkConf);
      if (problem) {
        for (const ownerId of changed) refused.set(`${version}:${ownerId}`, problem);
        continue;
      }
      for (const ownerId of changed) renameSync(path.join(next, `${ownerId}.conf`), path.join(dir, `${ownerId}.conf`));
      for (const ownerId of removed) rmSync(path.join(dir, `${ownerId}.conf`), { force: true });
      await signalPidFile(path.join(phpDir(settings, version), 'php-fpm.pid'), 'SIGUSR2', 'php-fpm');
    }
    return refused;
  };

  /** The sites of the last pass: their folders, for the disk and log rounds. */
  let known = new Map<number, string>();

  /** Each site's folder measured, written on its status row. */
  const measure = async () => {
    const sizes = await measureSiteFolders(settings);
    const bySite = new Map<number, number>();
    for (const [siteId, folder] of known) {
      const bytes = sizes.get(folder);
      if (bytes !== undefined) bySite.set(siteId, bytes);
    }
    await reportDisk(pool, await server(), bySite);
  };

  /** The sites' lines of nginx's shared logs, written for the sites that have new ones. */
  const siteLogs = new SiteLogs(logsDir(settings));
  let siteByName = new Map<string, number>();
  const siteOf = (name: string) => siteByName.get(name);
  const shipLogs = async () => {
    // The shared logs are rotated by size (one old file kept): nginx reopens them on SIGUSR1.
    for (const file of await siteLogs.rotate(settings.logMaxBytes ?? 64 * 1024 * 1024, reopenLogs, siteOf)) log(`rotated ${file}`);
    siteLogs.read(siteOf);
    for (const { siteId, access, error } of siteLogs.changed()) {
      if (known.has(siteId)) await reportLogs(pool, await server(), siteId, access, error);
      else siteLogs.drop(siteId);
    }
  };

  /** What this agent last reported per site, so an unchanged site is not written again. */
  const reported = new Map<number, string>();

  /**
   * The revision each site's folder was last prepared at: a pass after a notification trusts it for
   * the sites whose revision did not move (at 10,000 sites one change touches one folder); a full
   * pass (at start, after a lost connection, every minute) checks every folder again. Every pass
   * compares nginx's files with what it renders, which also replaces a file edited by hand.
   */
  const fresh = new Map<number, string>();
  let lastFailures = '';

  const onePass = async (full: boolean): Promise<PassResult> => {
    const began = performance.now();
    const marks: string[] = [];
    const mark = (what: string) => marks.push(`${what} ${Math.round(performance.now() - began)}`);
    const id = await server();
    // What this server has, and that its agent is alive: the servers page shows when it last said so.
    if (full) await reportServer(pool, id, installed);
    const rows = await sitesOf(pool, id);
    webmail = await webmailOf(id);
    const sites: WebSite[] = [];
    const failed: PassResult['failed'] = [];
    const revisions = new Map<number, string>();
    for (const row of rows) {
      const parsed = webSiteSchema.safeParse(row);
      if (parsed.success) sites.push(parsed.data);
      else {
        const siteId = Number((row as { site_id: unknown }).site_id);
        revisions.set(siteId, String((row as { revision: unknown }).revision));
        failed.push({ siteId, error: `invalid setting: ${parsed.error.issues.map((issue) => issue.path.join('.')).join(', ')}` });
      }
    }
    // A site whose folder is not safe to serve (a symlink out of it) loses its configuration too.
    const withdrawn = new Set<number>();
    const notes = new Map<number, string>();
    const pools = new Map<PhpVersion, Map<number, string>>(installed.map((version) => [version, new Map()]));
    const phpOf = new Map<number, PhpVersion>();
    for (const site of sites) {
      revisions.set(site.site_id, site.revision);
      let owner: CustomerUser;
      const upToDate = !full && fresh.get(site.site_id) === site.revision;
      try {
        owner = upToDate ? await owners.ensure(site.owner_id, customerHome(settings, site.owner_id)) : await prepareFiles(site);
      } catch (error) {
        withdrawn.add(site.site_id);
        failed.push({ siteId: site.site_id, error: (error as Error).message });
        continue;
      }
      const php = effectivePhpVersion(site.php_version, installed);
      const said: string[] = [];
      if (site.php_version !== 'off' && php !== site.php_version) {
        said.push(
          php
            ? `PHP ${site.php_version} is not installed on this server: the site runs on PHP ${php}.`
            : 'PHP is not installed on this server.',
        );
      }
      if (php) {
        phpOf.set(site.site_id, php);
        const limits = {
          children: site.php_workers ?? DEFAULT_POOL_LIMITS.children,
          memoryMb: site.php_memory_mb ?? DEFAULT_POOL_LIMITS.memoryMb,
        };
        pools.get(php)!.set(site.owner_id, renderPool(settings, php, site.owner_id, owner.name, limits));
        if (!owner.name) said.push("The agent does not run as root here: PHP runs as the agent's own user for every site.");
      }
      if (said.length > 0) notes.set(site.site_id, said.join(' '));
    }
    mark('folders');
    // Each site's certificate in use, written where nginx reads it; a site without one (or whose
    // files could not be written) is served with the default certificate meanwhile.
    const tls = await certificates.sync(
      pool,
      id,
      new Map(
        sites.flatMap((site) => (site.certificate && !withdrawn.has(site.site_id) ? [[site.site_id, site.certificate] as const] : [])),
      ),
    );
    for (const [siteId, problem] of tls.failed) notes.set(siteId, [notes.get(siteId), problem].filter(Boolean).join(' '));
    // The panel's own certificate as the default for names without one (read by nginx at a reload).
    const { changed: defaultChanged, ftpChanged } = await certificates.syncDefault(pool, ftpDefault);
    if (ftpChanged) await restartPureFtpd(ftpPidFile, log);
    // New certificates' OCSP answers, beside the pass (nginx staples them once they are there).
    void certificates.refreshOcsp(Date.now(), log);
    mark('certificates');
    const poolErrors = await applyPools(pools);
    mark('pools');
    const wanted = new Map<number, SiteEntries>();
    for (const site of sites) {
      if (withdrawn.has(site.site_id)) continue;
      const php = phpOf.get(site.site_id);
      const poolError = php ? poolErrors.get(`${php}:${site.owner_id}`) : undefined;
      if (poolError) {
        failed.push({ siteId: site.site_id, error: `PHP-FPM refused the pool: ${poolError}` });
        continue;
      }
      try {
        wanted.set(
          site.site_id,
          siteEntries(
            settings,
            site,
            php ? poolSocket(settings, php, site.owner_id) : null,
            tls.ready.has(site.site_id) && site.certificate ? { base: certificates.base(site.site_id), serial: site.certificate } : null,
          ),
        );
      } catch (error) {
        failed.push({ siteId: site.site_id, error: (error as Error).message });
      }
    }
    // What nginx gets: each site's new entries, or its last good ones when the new ones failed; a
    // site no longer here, or withdrawn, has none.
    const keeps = (siteId: number) => revisions.has(siteId) && !withdrawn.has(siteId);
    const lastGood = new Map([...applied].filter(([siteId]) => keeps(siteId)));
    const same = (a: SiteEntries | undefined, b: SiteEntries | undefined) => JSON.stringify(a) === JSON.stringify(b);
    const changed = [...wanted.keys()].filter((siteId) => !same(wanted.get(siteId), applied.get(siteId)));
    const removed = [...applied.keys()].filter((siteId) => !keeps(siteId));
    const candidate = (take: Iterable<number>) => {
      const next = new Map(lastGood);
      for (const siteId of take) next.set(siteId, wanted.get(siteId)!);
      return next;
    };
    const hosts = (entries: Map<number, SiteEntries>) =>
      [...entries.values()].reduce((n, site) => n + site.hosts.length, 0) + (webmail?.hosts.length ?? 0);
    let accepted = new Set(changed);
    let next = candidate(accepted);
    const main = renderMain(settings, sitesFile(settings), hosts(next));
    const mainChanged = !existsSync(mainConf) || readFileSync(mainConf, 'utf8') !== main;
    let text = renderSites([...next.values()], webmail);
    const onDisk = existsSync(sitesFile(settings)) ? readFileSync(sitesFile(settings), 'utf8') : undefined;
    mark('rendered');
    if (text !== onDisk || mainChanged) {
      let problem = await check(text, hosts(next));
      if (problem && changed.length > 0) {
        // Find the changed sites that break the check beside the last good ones, keep those sites'
        // last good entries, try the rest.
        for (const siteId of changed) {
          const alone = await check(renderSites([...candidate([siteId]).values()], webmail), hosts(next));
          if (alone) {
            accepted.delete(siteId);
            failed.push({ siteId, error: alone });
          }
        }
        next = candidate(accepted);
        text = renderSites([...next.values()], webmail);
        problem = await check(text, hosts(next));
      }
      if (problem) {
        for (const siteId of accepted) failed.push({ siteId, error: problem });
        log(`nginx refused the sites: ${problem}`);
        accepted = new Set();
        // The files nginx has are the last good ones: a new default certificate is read with them.
        if (defaultChanged) await reload();
      } else {
        writeIfChanged(sitesFile(settings), text);
        writeIfChanged(mainConf, main);
        applied = next;
        mark('checked');
        await reload();
        mark('reloaded');
      }
    } else {
      applied = next;
      if (defaultChanged) {
        await reload();
        mark('reloaded for the default certificate');
      }
    }
    writeIfChanged(sitesStateFile(settings), JSON.stringify([...applied.values()]));

    // A www or alias another site answers first is not this site's: said on its status.
    const claimed = claimHosts([...applied.values()]);
    for (const [siteId, entries] of applied) {
      const lost = entries.hosts.filter((host) => !claimed.get(siteId)?.includes(host));
      if (lost.length > 0) {
        const said = `Another site on this server answers ${lost.join(', ')}: this site does not.`;
        notes.set(siteId, [notes.get(siteId), said].filter(Boolean).join(' '));
      }
    }

    const failedIds = new Set(failed.map((f) => f.siteId));
    for (const { siteId, error } of failed) {
      const revision = revisions.get(siteId) ?? '0';
      if (reported.get(siteId) === `${revision}:${error}`) continue;
      await report(siteId, revision, error, notes.get(siteId) ?? '');
      reported.set(siteId, `${revision}:${error}`);
    }
    for (const siteId of wanted.keys()) {
      if (failedIds.has(siteId) || !same(applied.get(siteId), wanted.get(siteId))) continue;
      const revision = revisions.get(siteId)!;
      const note = notes.get(siteId) ?? '';
      if (reported.get(siteId) === `${revision}|${note}`) continue;
      await report(siteId, revision, undefined, note);
      reported.set(siteId, `${revision}|${note}`);
    }
    for (const siteId of removed) reported.delete(siteId);
    // The revisions whose folders stand ready (a failed or withdrawn site is prepared again next time).
    for (const siteId of [...fresh.keys()]) if (!wanted.has(siteId)) fresh.delete(siteId);
    for (const siteId of wanted.keys()) {
      if (failedIds.has(siteId)) fresh.delete(siteId);
      else fresh.set(siteId, revisions.get(siteId)!);
    }
    const failures = failed.map((f) => `${f.siteId}:${f.error}`).join('|');
    if (accepted.size > 0 || removed.length > 0 || failures !== lastFailures) {
      lastFailures = failures;
      log(
        `applied ${accepted.size}, removed ${removed.length}, failed ${failed.length} of ${rows.length} sites (${full ? 'full' : 'changes'}, ms: ${marks.join(', ')})`,
      );
    }
    // Folders of sites no longer here go; a row that failed its check keeps its folder.
    if (full || removed.length > 0) {
      const keep = new Set(rows.map((row) => folderKey(String(row.owner_id), String(row.name))));
      for (const folder of sweepSiteFolders(settings, keep)) log(`removed the folder of ${folder}`);
      const keepOwners = new Set(rows.map((row) => Number(row.owner_id)));
      for (const user of await owners.retire(keepOwners, settings.webRoot))
        log(`removed the system user ${user}, who has no site here any more`);
    }
    known = new Map(sites.map((site) => [site.site_id, folderKey(site.owner_id, site.name)]));
    siteByName = new Map([...applied.values()].flatMap((site) => site.hosts.map((host) => [host, site.siteId] as const)));
    return { applied: [...accepted], failed, removed };
  };

  const reopenLogs = async () => {
    await signalPidFile(path.join(settings.runDir, 'nginx.pid'), 'SIGUSR1', 'nginx');
  };
  // SIGHUP to the master itself: `nginx -s reload` would first parse the whole configuration again
  // only to find the pid (seconds at 10,000 sites).
  const reload = async () => {
    await signalPidFile(path.join(settings.runDir, 'nginx.pid'), 'SIGHUP', 'nginx');
  };

  // One pass at a time; a notification during a pass asks for one more after it (a full one if
  // any of the requests was for a full one).
  let running: Promise<PassResult> | undefined;
  let again: 'no' | 'changes' | 'full' = 'no';
  const pass = async (full = true): Promise<PassResult> => {
    if (running) {
      again = full || again === 'full' ? 'full' : 'changes';
      return running;
    }
    running = (async () => {
      try {
        let result = await onePass(full);
        while (again !== 'no') {
          const next: boolean = again === 'full';
          again = 'no';
          result = await onePass(next);
        }
        return result;
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  const passQuietly = (full = true) =>
    pass(full).catch((error: unknown) => {
      log(`pass failed: ${(error as Error).message}`);
    });

  // LISTEN on a connection of its own; after a lost connection, a full pass catches up.
  let listener: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const listen = async () => {
    if (stopped) return;
    const client = new pg.Client({ connectionString: settings.databaseUrl, keepAlive: true, connectionTimeoutMillis: 5_000 });
    const reconnect = () => {
      if (stopped || listener !== client) return;
      listener = undefined;
      client.end().catch(() => undefined);
      retry = setTimeout(() => void listen(), 1_000);
    };
    listener = client;
    client.on('error', reconnect);
    client.on('end', reconnect);
    client.on('notification', (message) => {
      // `default`: the panel's own certificate changed (migration 0049), every server's concern.
      if (serverId === undefined || message.payload === String(serverId) || message.payload === 'default') void passQuietly(false);
    });
    try {
      await client.connect();
      await client.query('listen berth_web');
      await passQuietly();
      // Ready: listening and applied once (server/src/daemons/web.ts webAgentReady reads it).
      writeFileSync(path.join(settings.runDir, 'agent.pid'), String(process.pid));
    } catch {
      reconnect();
    }
  };
  await listen();
  const sweep = setInterval(() => void passQuietly(), settings.sweepEveryMs ?? 60_000);
  const quietly = (what: string, task: () => Promise<void>) => () =>
    void task().catch((error: unknown) => {
      log(`${what} failed: ${(error as Error).message}`);
    });
  const disk = setInterval(quietly('measuring', measure), settings.diskEveryMs ?? 60_000);
  const logs = setInterval(quietly('reading logs', shipLogs), settings.logsEveryMs ?? 5_000);
  const ocsp = setInterval(() => void certificates.refreshOcsp(Date.now(), log), 60_000);

  return {
    pass,
    async stop() {
      stopped = true;
      clearInterval(sweep);
      clearInterval(disk);
      clearInterval(logs);
      clearInterval(ocsp);
      if (retry) clearTimeout(retry);
      await listener?.end().catch(() => undefined);
      await running?.catch(() => undefined);
      await new Promise((resolve) => acme.close(resolve));
      await pool.end();
    },
  };
}

/** The entries of the last pass (sites.json), each held to the rules again; none when unreadable. */
function loadApplied(file: string): Map<number, SiteEntries> {
  const applied = new Map<number, SiteEntries>();
  try {
    for (const entries of JSON.parse(readFileSync(file, 'utf8')) as SiteEntries[]) {
      try {
        applied.set(entries.siteId, checkedEntries(entries));
      } catch {
        // dropped: it is rendered again from its row
      }
    }
  } catch {
    // none yet
  }
  return applied;
}

/**
 * Signals the process a pid file names if it runs and is the daemon named (`comm` starts with it):
 * a daemon killed outright leaves its pid file behind, and its pid may belong to another process by now.
 */
async function signalPidFile(file: string, signal: NodeJS.Signals, daemon: string): Promise<boolean> {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    if (!readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith(daemon)) return false;
    process.kill(pid, signal);
    return true;
  } catch {
    // not running
    return false;
  }
}

function writeIfChanged(file: string, text: string): void {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  writeFileSync(`${file}.new`, text);
  renameSync(`${file}.new`, file);
}
