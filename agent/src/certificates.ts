import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type pg from 'pg';
import { keysById, openWith } from '@berth/contracts/sealed';
import { certificatesOf, platformCertificate } from './queries.ts';

const run = promisify(execFile);
const FILE = /^(\d+)\.(crt|key|ocsp)$/;
/** An OCSP answer is fetched again after this long (CAs answered for days; a revoked certificate shows within it). */
export const OCSP_REFRESH_MS = 6 * 60 * 60 * 1000;
/** A fetch that failed, or an answer that was not "good", is tried again after this long. */
export const OCSP_RETRY_MS = 10 * 60 * 1000;

/** What is stapled for one site: its CA's responder, and when the answer was last fetched or tried. */
interface OcspEntry {
  url: string;
  leaf: string;
  issuer: string;
  nextAt: number;
}

/**
 * The certificate files nginx reads per site (`<dir>/<site id>.crt` with its chain, `.key`), written
 * from the database when a site's certificate in use changes: mode 0600, owned by nginx's worker
 * user (nginx's workers read a site's certificate at its first handshake: agent/src/nginx.ts). The keys
 * arrive sealed under the key derived for certificate keys (server: CERTIFICATE_KEYS_PURPOSE),
 * which is all this agent is given of the server's secrets.
 */
export class SiteCertificates {
  private readonly dir: string;
  private readonly keys: Map<string, Buffer>;
  private readonly workerUser: string | null;
  /** The serial each site's files hold. */
  private readonly written = new Map<number, string>();
  /** The serial of the panel's certificate the default files hold; null: the self-signed one. */
  private defaultSerial: string | null = null;
  private worker: { uid: number; gid: number } | null | undefined;
  /** Sites whose certificate Berth ordered and names an OCSP responder (agent/src/nginx.ts staples its answer). */
  private readonly ocsp = new Map<number, OcspEntry>();
  private fetching: Promise<void> | undefined;

  constructor(dir: string, keys: string | undefined, workerUser: string | null) {
    this.dir = dir;
    this.keys = keysById(keys);
    this.workerUser = workerUser;
    mkdirSync(dir, { recursive: true, mode: 0o711 });
  }

  /** The default certificate (names without their own) where the workers can read it: `<dir>/default.crt`, `.key`. */
  get defaultBase(): string {
    return path.join(this.dir, 'default');
  }

  /**
   * Copies the server's default certificate (`<from>.crt`, `.key`, readable by root only) beside the
   * sites'; without one (an agent started without `npm run services`), a self-signed one of its own:
   * nginx's configuration names the default, so it must be there before nginx starts.
   */
  async placeDefault(from: string): Promise<void> {
    const owner = await this.workerIds();
    if (!existsSync(`${from}.crt`) || !existsSync(`${from}.key`)) {
      if (existsSync(`${this.defaultBase}.crt`) && existsSync(`${this.defaultBase}.key`)) return;
      await run('openssl', [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '3650'],
        ...['-subj', '/CN=berth-default', '-keyout', `${this.defaultBase}.key.new`, '-out', `${this.defaultBase}.crt.new`],
      ]);
      for (const ext of ['key', 'crt'])
        this.write(`${this.defaultBase}.${ext}`, readFileSync(`${this.defaultBase}.${ext}.new`, 'utf8'), owner);
      return;
    }
    for (const ext of ['crt', 'key'])
      if (
        !existsSync(`${this.defaultBase}.${ext}`) ||
        readFileSync(`${this.defaultBase}.${ext}`, 'utf8') !== readFileSync(`${from}.${ext}`, 'utf8')
      )
        this.write(`${this.defaultBase}.${ext}`, readFileSync(`${from}.${ext}`, 'utf8'), owner);
  }

  /**
   * Writes the panel's own certificate (migration 0049) as the default, when there is one and the
   * files hold another: answers whether they changed (nginx reads its default at a reload; Pure-FTPd's
   * certificate program reads the files at each handshake), and whether Pure-FTPd's own file did
   * (read only at its start: after an agent's restart it usually holds the same certificate already).
   */
  async syncDefault(pool: pg.Pool, ftpPem: string): Promise<{ changed: boolean; ftpChanged: boolean }> {
    const unchanged = { changed: false, ftpChanged: false };
    if (this.keys.size === 0) return unchanged;
    const row = await platformCertificate(pool);
    if (!row || row.serial === this.defaultSerial) return unchanged;
    const owner = await this.workerIds();
    const key = openWith(this.keys, row.key_sealed);
    this.write(`${this.defaultBase}.key`, key, owner);
    this.write(`${this.defaultBase}.crt`, row.cert_pem, owner);
    // Pure-FTPd's own default (a client that names nothing is not sent to pure-certd): key and chain, root's.
    let ftpChanged = false;
    if (existsSync(path.dirname(ftpPem))) {
      const pem = key + row.cert_pem;
      ftpChanged = readIfThere(ftpPem) !== pem;
      if (ftpChanged) this.write(ftpPem, pem, null);
    }
    this.defaultSerial = row.serial;
    return { changed: true, ftpChanged };
  }

  /** Where a site's files are, without the extension (nginx's map names it). */
  base(siteId: number): string {
    return path.join(this.dir, String(siteId));
  }

  /**
   * Makes the files say what the database does for `wanted` (site id → serial in use) and removes
   * the rest; answers the sites whose files are ready.
   */
  async sync(pool: pg.Pool, serverId: number, wanted: Map<number, string>): Promise<{ ready: Set<number>; failed: Map<number, string> }> {
    const failed = new Map<number, string>();
    const missing = [...wanted].filter(
      ([siteId, serial]) =>
        this.written.get(siteId) !== serial || !existsSync(`${this.base(siteId)}.crt`) || !existsSync(`${this.base(siteId)}.key`),
    );
    if (missing.length > 0 && this.keys.size === 0) {
      for (const [siteId] of missing) failed.set(siteId, 'This web server was given no key for certificates (npm run services writes it).');
    } else if (missing.length > 0) {
      const owner = await this.workerIds();
      for (const row of await certificatesOf(
        pool,
        serverId,
        missing.map(([siteId]) => siteId),
      )) {
        try {
          const key = openWith(this.keys, row.key_sealed);
          // The answer about the certificate these files held is no answer about the new one.
          rmSync(`${this.base(row.site_id)}.ocsp`, { force: true });
          this.ocsp.delete(row.site_id);
          this.write(`${this.base(row.site_id)}.key`, key, owner);
          this.write(`${this.base(row.site_id)}.crt`, row.cert_pem, owner);
          this.written.set(row.site_id, row.serial);
          const responder = row.method === 'custom' ? null : ocspResponder(row.cert_pem);
          if (responder) this.ocsp.set(row.site_id, { ...responder, nextAt: 0 });
        } catch (error) {
          failed.set(row.site_id, `The certificate could not be written: ${(error as Error).message}`);
        }
      }
    }
    for (const name of readdirSync(this.dir)) {
      const siteId = Number(FILE.exec(name)?.[1]);
      if (Number.isSafeInteger(siteId) && !wanted.has(siteId)) {
        rmSync(path.join(this.dir, name), { force: true });
        this.written.delete(siteId);
        this.ocsp.delete(siteId);
      }
    }
    const ready = new Set([...wanted].filter(([siteId, serial]) => this.written.get(siteId) === serial).map(([siteId]) => siteId));
    return { ready, failed };
  }

  /**
   * Fetches the OCSP answers that are due (new certificates at once, then every OCSP_REFRESH_MS)
   * with Debian's openssl, and writes `<site>.ocsp` for nginx to staple when the answer says
   * "good"; nginx checks its signature against the chain before it staples it. One round at a
   * time; a round's failures are logged and tried again after OCSP_RETRY_MS. Only certificates
   * Berth ordered from its CA are asked about: the address an uploaded certificate names is the
   * customer's to choose, and the agent does not fetch from it.
   */
  refreshOcsp(now: number, log: (line: string) => void): Promise<void> {
    if (this.fetching) return this.fetching;
    const due = [...this.ocsp].filter(([, entry]) => entry.nextAt <= now);
    if (due.length === 0) return Promise.resolve();
    this.fetching = (async () => {
      const owner = await this.workerIds();
      for (const [siteId, entry] of due) {
        const good = await fetchOcsp(entry).catch((error: unknown) => {
          log(`the OCSP answer of site ${siteId} could not be fetched from ${entry.url}: ${(error as Error).message}`);
          return null;
        });
        // The certificate may have changed while the answer was on its way.
        if (this.ocsp.get(siteId) !== entry) continue;
        if (good) this.write(`${this.base(siteId)}.ocsp`, good, owner);
        entry.nextAt = now + (good ? OCSP_REFRESH_MS : OCSP_RETRY_MS);
      }
    })()
      .catch((error: unknown) => log(`stapling OCSP answers failed: ${(error as Error).message}`))
      .finally(() => {
        this.fetching = undefined;
      });
    return this.fetching;
  }

  /** Written beside and renamed over: nginx never reads half a file. */
  private write(file: string, data: string | Buffer, owner: { uid: number; gid: number } | null): void {
    writeFileSync(`${file}.new`, data, { mode: 0o600 });
    if (owner) chownSync(`${file}.new`, owner.uid, owner.gid);
    renameSync(`${file}.new`, file);
  }

  private async workerIds(): Promise<{ uid: number; gid: number } | null> {
    if (this.worker !== undefined) return this.worker;
    if (!this.workerUser) return (this.worker = null);
    const [uid, gid] = await Promise.all([run('id', ['-u', this.workerUser]), run('id', ['-g', this.workerUser])]);
    return (this.worker = { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) });
  }
}

/** A file's text, or undefined when it is not there or cannot be read. */
function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The leaf, its issuer and the leaf's OCSP responder (an http address), when the chain has them. */
export function ocspResponder(chainPem: string): { url: string; leaf: string; issuer: string } | null {
  const [leaf, issuer] = chainPem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (!leaf || !issuer) return null;
  const url = /^OCSP - URI:(http:\/\/[^\s]+)$/m.exec(new X509Certificate(leaf).infoAccess ?? '')?.[1];
  return url ? { url, leaf: `${leaf}\n`, issuer: `${issuer}\n` } : null;
}

/** The responder's DER answer for the leaf when it says "good"; null when it says anything else. */
async function fetchOcsp(entry: { url: string; leaf: string; issuer: string }): Promise<Buffer | null> {
  const dir = mkdtempSync(path.join(tmpdir(), 'berth-ocsp-'));
  try {
    const [leaf, issuer, answer] = ['leaf.pem', 'issuer.pem', 'answer.der'].map((name) => path.join(dir, name));
    writeFileSync(leaf!, entry.leaf);
    writeFileSync(issuer!, entry.issuer);
    // The address is passed as one argument, never through a shell; nginx verifies the answer. No
    // nonce: the answer is stapled for every client, as CAs' responders expect.
    const { stdout } = await run(
      'openssl',
      ['ocsp', '-issuer', issuer!, '-cert', leaf!, '-url', entry.url, '-timeout', '10', '-no_nonce', '-noverify', '-respout', answer!],
      { timeout: 15_000 },
    );
    return stdout.split('\n').includes(`${leaf!}: good`) ? readFileSync(answer!) : null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
